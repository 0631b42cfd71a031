package io.triplerpc.serialization.wrapper;

import com.google.protobuf.CodedInputStream;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.ObjectCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * A method's result, or an exception its service threw, as a {@code TripleResponseWrapper}: the value
 * serialized on its own, the serialization's wire name, and {@code Class.getName()} of the method's
 * declared result type. Dubbo writes that same type name for results and for exceptions, and its readers
 * ignore it; so does this one. It reads the value in whichever of the method's serializations the wrapper
 * names.
 *
 * @param <T> {@code Object} for results, {@link Throwable} for exceptions
 */
final class ResponseWrapperCodec<T> extends AbstractWrapperCodec<T, TripleResponseWrapper> {

  private final String what;
  private final Class<T> valueClass;
  /** The value's codec in each accepted serialization, in its order. */
  private final ObjectCodec[] codecs;
  /** Whether a {@code null} read is an error: for exceptions and primitive results. */
  private final boolean nonNull;
  /** Whether the method returns nothing; its data (a serialized null) is not looked at. */
  private final boolean isVoid;
  /** The encoded field 3, {@code type}, which comes last. */
  private final byte[] typeField;

  /**
   * @param resultType the method's declared result type, which names the wrapper's {@code type}
   * @param valueType what the data holds: {@code resultType} for results, {@code Throwable} for exceptions
   */
  ResponseWrapperCodec(String where, Accepted accepted, ClassLoader classLoader, Type resultType,
      Class<T> valueClass, Type valueType, AllowedClasses allowed) {
    super(where, accepted, "TripleResponseWrapper",
        wireName -> TripleResponseWrapper.newBuilder().setSerializeType(wireName).build().toByteArray());
    this.valueClass = valueClass;
    Class<?> rawResult = Types.rawClass(resultType);
    this.isVoid = valueClass == Object.class && (rawResult == void.class || rawResult == Void.class);
    this.what = valueClass == Throwable.class ? "exception" : "result";
    this.nonNull = valueClass == Throwable.class || rawResult.isPrimitive() && !isVoid;
    this.codecs = new ObjectCodec[accepted.size()];
    for (int s = 0; s < accepted.size(); s++) {
      codecs[s] = accepted.get(s).codecFor(isVoid ? Object.class : valueType, classLoader, allowed);
    }
    this.typeField = TripleResponseWrapper.newBuilder().setType(rawResult.getName()).build().toByteArray();
  }

  @Override
  void write(T value, int serialization, OutputStream out) throws IOException {
    Scratch scratch = Scratch.acquire();
    try {
      try {
        codecs[serialization].write(isVoid ? null : value, scratch);
      } catch (IOException e) {
        throw new IOException(where + ": " + what + ": " + e.getMessage(), e);
      }
      out.write(serializeTypeFields[serialization]);
      WireFormat.writeField2(out, scratch.array(), 0, scratch.size());
      out.write(typeField);
    } finally {
      scratch.release();
    }
  }

  @Override
  TripleResponseWrapper parse(InputStream in) throws IOException {
    return TripleResponseWrapper.parseFrom(in);
  }

  @Override
  TripleResponseWrapper parse(CodedInputStream in) throws IOException {
    return TripleResponseWrapper.parseFrom(in);
  }

  @Override
  InSerialization<T> decode(TripleResponseWrapper wrapper) throws IOException {
    int serialization = serializationOf(wrapper.getSerializeType(), what);
    Object value;
    try {
      value = codecs[serialization].read(wrapper.getData().newInput());
    } catch (ClassNotAllowedException e) {
      // Already names the class and the service, and becomes the call's status as it is.
      throw e;
    } catch (IOException e) {
      throw new IOException(where + ": " + what + ": " + e.getMessage(), e);
    }
    if (isVoid) {
      value = null;
    } else if (value == null && nonNull) {
      throw new IOException(where + ": the response carries a null " + what + ", which the method cannot return");
    }
    return new InSerialization<>(valueClass.cast(value), accepted.get(serialization));
  }

  @Override
  public String toString() {
    return "ResponseWrapperCodec{" + where + ", " + what + ", " + accepted + '}';
  }
}
