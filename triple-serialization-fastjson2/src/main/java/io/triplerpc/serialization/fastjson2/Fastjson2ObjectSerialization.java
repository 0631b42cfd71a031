package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.reader.ObjectReaderCreatorASM;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import com.alibaba.fastjson2.writer.ObjectWriterCreatorASM;
import com.alibaba.fastjson2.writer.ObjectWriterProvider;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.PerServiceSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.lang.reflect.Type;

/**
 * fastjson2's binary JSONB, byte for byte as Apache Dubbo 3.3's {@code fastjson2} serialization writes and
 * reads it ({@code FastJson2ObjectOutput} and {@code FastJson2ObjectInput}), so a Dubbo peer that
 * negotiates {@code fastjson2} calls and serves the same interface.
 *
 * <p>On the wire each value is a 4-byte big-endian length and then that many bytes of JSONB, written by
 * {@code JSONB.toBytes} with Dubbo's features: {@code WriteClassName} (an object names its class in an
 * {@code "@type"}, except where the declared type of a field already says it, and except {@code HashMap} and
 * {@code ArrayList}), {@code FieldBased} (fields, not getters, whatever their access), {@code
 * ReferenceDetection}, {@code WriteNulls}, {@code NotWriteDefaultValue} and {@code WriteNameAsSymbol}. Dubbo
 * also sets {@code ErrorOnNoneSerializable} in its default configuration, which changes no byte but refuses
 * classes that are not {@link java.io.Serializable}; this serialization does not, so records and POJOs need
 * not declare it unless a Dubbo peer reads them.
 *
 * <p>Reading honours the declared type, generics included, and every class an {@code "@type"} names must be
 * allowed by the service's {@link AllowedClasses}: the name is checked before fastjson2 loads anything (an
 * {@code AutoTypeBeforeHandler} on every read, and on the reader provider itself); fastjson2's own autotype
 * stays off. Each service has its own reader and writer providers, so no cache fastjson2 keeps of the
 * classes one service allowed serves another. An exception whose class readers may not build is written
 * as a {@link io.triplerpc.serialization.object.RemoteServiceException} in its place.
 *
 * <p>Thread-safe.
 */
public final class Fastjson2ObjectSerialization
    extends PerServiceSerialization<Fastjson2ObjectSerialization.Providers> {

  /** Dubbo's writer features ({@code FastJson2ObjectOutput}), less {@code ErrorOnNoneSerializable}. */
  static final JSONWriter.Feature[] WRITE_FEATURES = {
      JSONWriter.Feature.WriteClassName,
      JSONWriter.Feature.FieldBased,
      JSONWriter.Feature.ReferenceDetection,
      JSONWriter.Feature.WriteNulls,
      JSONWriter.Feature.NotWriteDefaultValue,
      JSONWriter.Feature.NotWriteHashMapArrayListClassName,
      JSONWriter.Feature.WriteNameAsSymbol};

  /**
   * Dubbo's reader features ({@code FastJson2ObjectInput}), less {@code ErrorOnNoneSerializable}; never
   * {@code SupportAutoType}: classes named on the wire go through {@link CheckedAutoType} alone.
   */
  static final JSONReader.Feature[] READ_FEATURES = {
      JSONReader.Feature.UseDefaultConstructorAsPossible,
      JSONReader.Feature.UseNativeObject,
      JSONReader.Feature.IgnoreAutoTypeNotMatch,
      JSONReader.Feature.FieldBased};

  /**
   * Creates the serialization; {@link ObjectSerializations#named} returns a shared instance. Dubbo names it
   * {@code fastjson2} on the wire and in its configuration alike.
   */
  public Fastjson2ObjectSerialization() {
    super(ObjectSerializations.FASTJSON2, ObjectSerializations.FASTJSON2, Providers::create);
  }

  @Override
  protected ObjectCodec newCodec(Type type, Providers shared, AllowedClasses allowed) {
    return new Fastjson2Codec(type, shared.reader, shared.autoType, shared.writer);
  }

  /** One service's reader and writer providers, and the class check its readers run. */
  static final class Providers {
    final ObjectReaderProvider reader;
    final CheckedAutoType autoType;
    final ObjectWriterProvider writer;

    private Providers(ObjectReaderProvider reader, CheckedAutoType autoType, ObjectWriterProvider writer) {
      this.reader = reader;
      this.autoType = autoType;
      this.writer = writer;
    }

    static Providers create(ClassLoader loader, AllowedClasses allowed) {
      CheckedAutoType autoType = new CheckedAutoType(loader, allowed);
      // Dubbo builds its readers and writers with the ASM creators of the class loader at hand, too.
      ObjectReaderProvider reader = new ObjectReaderProvider(new ObjectReaderCreatorASM(loader));
      // Also consulted by the provider's own autotype check, should any path reach it.
      reader.setAutoTypeBeforeHandler(autoType);
      reader.register(new TripleReaders(autoType));
      ObjectWriterProvider writer = new ObjectWriterProvider(new ObjectWriterCreatorASM(loader));
      writer.register(new ThrowableStandIns(allowed));
      return new Providers(reader, autoType, writer);
    }
  }
}
