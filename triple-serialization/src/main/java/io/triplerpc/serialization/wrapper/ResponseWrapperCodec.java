package io.triplerpc.serialization.wrapper;

import com.google.protobuf.InvalidProtocolBufferException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;

/**
 * A method's result, or an exception its service threw, as a {@code TripleResponseWrapper}: the value
 * serialized on its own, the serialization's wire name, and {@code Class.getName()} of the method's
 * declared result type. Dubbo writes that same type name for results and for exceptions, and its readers
 * ignore it; so does this one.
 *
 * @param <T> {@code Object} for results, {@link Throwable} for exceptions
 */
final class ResponseWrapperCodec<T> implements MessageCodec<T> {

  private final String where;
  private final String what;
  private final ObjectSerialization serialization;
  private final Class<T> valueClass;
  private final ObjectCodec codec;
  /** Whether a {@code null} read is an error: for exceptions and primitive results. */
  private final boolean nonNull;
  /** Whether the method returns nothing; its data (a serialized null) is not looked at. */
  private final boolean isVoid;
  /** The encoded field 1, {@code serializeType}, which comes first. */
  private final byte[] serializeTypeField;
  /** The encoded field 3, {@code type}, which comes last. */
  private final byte[] typeField;

  /**
   * @param resultType the method's declared result type, which names the wrapper's {@code type}
   * @param valueType what the data holds: {@code resultType} for results, {@code Throwable} for exceptions
   */
  ResponseWrapperCodec(String where, ObjectSerialization serialization, ClassLoader classLoader, Type resultType,
      Class<T> valueClass, Type valueType, AllowedClasses allowed) {
    this.where = where;
    this.serialization = serialization;
    this.valueClass = valueClass;
    Class<?> rawResult = Types.rawClass(resultType);
    this.isVoid = valueClass == Object.class && (rawResult == void.class || rawResult == Void.class);
    this.what = valueClass == Throwable.class ? "exception" : "result";
    this.codec = serialization.codecFor(isVoid ? Object.class : valueType, classLoader, allowed);
    this.nonNull = valueClass == Throwable.class || rawResult.isPrimitive() && !isVoid;
    this.serializeTypeField =
        TripleResponseWrapper.newBuilder().setSerializeType(serialization.wireName()).build().toByteArray();
    this.typeField = TripleResponseWrapper.newBuilder().setType(rawResult.getName()).build().toByteArray();
  }

  @Override
  public String subtype() {
    return WrapperCodecs.SUBTYPE;
  }

  @Override
  public int serializedSize(T value) {
    return -1;
  }

  @Override
  public void write(T value, OutputStream out) throws IOException {
    Scratch scratch = Scratch.acquire();
    try {
      try {
        codec.write(isVoid ? null : value, scratch);
      } catch (IOException e) {
        throw new IOException(where + ": " + what + ": " + e.getMessage(), e);
      }
      out.write(serializeTypeField);
      WireFormat.writeField2(out, scratch.array(), 0, scratch.size());
      out.write(typeField);
    } finally {
      scratch.release();
    }
  }

  @Override
  public T read(InputStream in) throws IOException {
    TripleResponseWrapper wrapper;
    try {
      wrapper = TripleResponseWrapper.parseFrom(in);
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed("TripleResponseWrapper", where, e);
    }
    return decode(wrapper);
  }

  @Override
  public T read(ByteBuffer source) throws IOException {
    TripleResponseWrapper wrapper;
    try {
      wrapper = TripleResponseWrapper.parseFrom(WireFormat.input(source));
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed("TripleResponseWrapper", where, e);
    }
    return decode(wrapper);
  }

  private T decode(TripleResponseWrapper wrapper) throws IOException {
    String serializeType = wrapper.getSerializeType();
    if (!serialization.readsWireName(serializeType)) {
      throw new IOException(where + " reads a " + serialization.name() + " " + what + " (serializeType '"
          + serialization.wireName() + "'), but the response's serializeType is '" + serializeType + "'");
    }
    Object value;
    try {
      value = codec.read(wrapper.getData().newInput());
    } catch (ClassNotAllowedException e) {
      // Already names the class and the service, and becomes the call's status as it is.
      throw e;
    } catch (IOException e) {
      throw new IOException(where + ": " + what + ": " + e.getMessage(), e);
    }
    if (isVoid) {
      return null;
    }
    if (value == null && nonNull) {
      throw new IOException(where + ": the response carries a null " + what + ", which the method cannot return");
    }
    return valueClass.cast(value);
  }

  @Override
  public String toString() {
    return "ResponseWrapperCodec{" + where + ", " + what + ", " + serialization.name() + '}';
  }
}
