package io.triplerpc.serialization.json;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.PolymorphicTypeValidator;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.PerServiceSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.lang.reflect.Type;

/**
 * Text JSON through Jackson ({@code "jackson"}), for services that want a readable wire format between
 * Triple peers. It is not Dubbo 3.3's JSON: Dubbo 3.3.6 has no Jackson serialization, and its JSON-family
 * one is fastjson2's binary JSONB (in {@code triple-serialization-fastjson2}).
 * On the wrapper's wire it is named {@code "jackson"}, as the Jackson serialization of dubbo-spi-extensions
 * names its bytes, which this reads (it writes one JSON value per argument and a newline) and which reads
 * this.
 *
 * <p>The mapping aims at the same values hessian carries: fields are properties whatever their access (so
 * a POJO needs no getters), {@code java.time} values are ISO-8601 strings with their zone kept, {@code
 * Optional} is its value or {@code null}, {@code BigDecimal} keeps its scale, unknown properties are
 * ignored, and a subclass declared as its superclass or an exception carries its class in an {@code
 * "@class"} property (see {@link TypeIdPolicy}); an exception class Jackson cannot construct reads as a
 * {@link io.triplerpc.serialization.object.RemoteServiceException}. Generic declared types are honoured:
 * a {@code List<User>} reads {@code User}s. A value declared {@code Object} reads as plain JSON values
 * (maps, lists, strings, numbers): no class is constructed from a name unless the declared type bounds it,
 * and every class an {@code "@class"} names must be allowed by the service's {@link AllowedClasses}.
 *
 * <p>Thread-safe; one mapper (and its serializer caches) per class loader and service.
 */
public final class JsonObjectSerialization extends PerServiceSerialization<ObjectMapper> {

  /** Creates the serialization; {@link ObjectSerializations#named} returns a shared instance. */
  public JsonObjectSerialization() {
    super(ObjectSerializations.JACKSON, "jackson", JsonObjectSerialization::newMapper);
  }

  @Override
  protected ObjectCodec newCodec(Type type, ObjectMapper mapper, AllowedClasses allowed) {
    JavaType javaType = mapper.getTypeFactory().constructType(type);
    return new JsonCodec(type, mapper.readerFor(javaType), mapper.writerFor(javaType), allowed);
  }

  /**
   * A codec of {@code type} that writes no {@code "@class"} property: the JSON any client reads, for REST
   * answers; it reads as {@link #codecFor} does. Each call makes a mapper of its own, so call it once per
   * method, as it is bound.
   */
  public static ObjectCodec plainCodecFor(Type type, ClassLoader classLoader, AllowedClasses allowed) {
    ObjectMapper mapper = newMapper(classLoader, allowed).deactivateDefaultTyping();
    JavaType javaType = mapper.getTypeFactory().constructType(type);
    return new JsonCodec(type, mapper.readerFor(javaType), mapper.writerFor(javaType), allowed);
  }

  /** The mapper every JSON codec of {@code classLoader} and {@code allowed} shares. */
  static ObjectMapper newMapper(ClassLoader classLoader, AllowedClasses allowed) {
    PolymorphicTypeValidator validator = TypeIdPolicy.validator(allowed);
    ObjectMapper mapper = JsonMapper.builder()
        .typeFactory(TypeFactory.defaultInstance().withClassLoader(classLoader))
        // Also guards the class names of @JsonTypeInfo annotations, which do not go through default typing.
        .polymorphicTypeValidator(validator)
        .addModule(new JavaTimeModule())
        .addModule(new Jdk8Module())
        .addModule(new SimpleModule("triple-throwables")
            .setDeserializerModifier(new ThrowableFallback())
            .setSerializerModifier(new ThrowableStandIns(allowed)))
        .setDefaultTyping(new TypeIdPolicy(validator))
        .enable(MapperFeature.USE_BASE_TYPE_AS_DEFAULT_IMPL)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
        .enable(SerializationFeature.WRITE_DATES_WITH_ZONE_ID)
        .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        // The codec writes into and reads from the caller's stream, which the caller closes.
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
        .build();
    mapper.setVisibility(new FieldVisibility());
    return mapper;
  }

}
