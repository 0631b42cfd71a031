package io.triplerpc.serialization.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.io.IOException;

/**
 * Writes an exception whose class the service's signatures do not reach (a cause from a driver, an
 * undeclared exception) as a {@link RemoteServiceException}, with its own {@code "@class"}: a reader of
 * the same service allows the stand-in, where the class itself would fail the whole call. Declared
 * exceptions and the JDK's common ones are written as themselves.
 */
final class ThrowableStandIns extends BeanSerializerModifier {

  private static final long serialVersionUID = 1L;

  private final transient AllowedClasses allowed;

  ThrowableStandIns(AllowedClasses allowed) {
    this.allowed = allowed;
  }

  @Override
  public JsonSerializer<?> modifySerializer(
      SerializationConfig config, BeanDescription description, JsonSerializer<?> serializer) {
    Class<?> type = description.getBeanClass();
    return Throwable.class.isAssignableFrom(type) && !allowed.allows(type.getName()) ? StandIn.INSTANCE : serializer;
  }

  private static final class StandIn extends StdSerializer<Throwable> {
    private static final long serialVersionUID = 1L;
    static final StandIn INSTANCE = new StandIn();

    private StandIn() {
      super(Throwable.class);
    }

    @Override
    public void serialize(Throwable value, JsonGenerator generator, SerializerProvider provider) throws IOException {
      // The typed serializer writes the stand-in's "@class"; its cause goes through this modifier too.
      provider.findTypedValueSerializer(RemoteServiceException.class, true, null)
          .serialize(RemoteServiceException.standingIn(value), generator, provider);
    }

    @Override
    public void serializeWithType(Throwable value, JsonGenerator generator, SerializerProvider provider,
        TypeSerializer typeSerializer) throws IOException {
      // Not the original's type id: the reader is to build the stand-in, which names the original.
      serialize(value, generator, provider);
    }
  }
}
