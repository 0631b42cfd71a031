package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONB;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import com.alibaba.fastjson2.writer.ObjectWriter;
import com.alibaba.fastjson2.writer.ObjectWriterProvider;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.ObjectCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Optional;

/**
 * fastjson2 codec of one declared type: one value as a 4-byte big-endian length and that many bytes of
 * JSONB, as Dubbo frames each value it writes with fastjson2.
 */
final class Fastjson2Codec implements ObjectCodec {

  /** The length prefix before each value's JSONB. */
  private static final int PREFIX = Integer.BYTES;

  private final Type type;
  private final Class<?> rawClass;
  /** The class every non-null value read must be an instance of: the boxed raw class. */
  private final Class<?> expectedClass;
  private final ObjectReaderProvider readers;
  private final CheckedAutoType autoType;
  private final ObjectWriterProvider writers;
  /**
   * The reader of the declared type, made on first use (a service reads most types in one serialization
   * only); the provider caches it, so a race makes it twice at worst.
   */
  private volatile ObjectReader<?> reader;

  Fastjson2Codec(Type type, ObjectReaderProvider readers, CheckedAutoType autoType, ObjectWriterProvider writers) {
    this.type = type;
    this.rawClass = Types.rawClass(type);
    this.expectedClass = Types.boxed(rawClass);
    this.readers = readers;
    this.autoType = autoType;
    this.writers = writers;
  }

  @Override
  public Type type() {
    return type;
  }

  @Override
  public void write(Object value, OutputStream out) throws IOException {
    JSONWriter.Context context = new JSONWriter.Context(writers, Fastjson2ObjectSerialization.WRITE_FEATURES);
    try (JSONWriter writer = JSONWriter.ofJSONB(context)) {
      // What JSONB.toBytes(value, features) does, into fastjson2's pooled buffer rather than a copy of it.
      if (value == null) {
        writer.writeNull();
      } else {
        writer.setRootObject(value);
        Class<?> valueClass = value.getClass();
        ObjectWriter<?> objectWriter = writer.getObjectWriter(valueClass, valueClass);
        objectWriter.writeJSONB(writer, value, null, null, 0);
      }
      int length = writer.size();
      out.write(length >>> 24);
      out.write(length >>> 16);
      out.write(length >>> 8);
      out.write(length);
      writer.flushTo(out);
    } catch (RuntimeException | LinkageError e) {
      // fastjson2 reports a class it cannot write (a lambda, a JDK class whose fields it may not read) as
      // either.
      throw new IOException("Cannot write " + (value == null ? "null" : "a " + value.getClass().getName())
          + " as fastjson2: " + e.getMessage(), e);
    }
  }

  @Override
  public Object read(InputStream in) throws IOException {
    byte[] bytes = in.readAllBytes();
    if (bytes.length < PREFIX) {
      throw malformed("the value is " + bytes.length + " byte(s), shorter than its 4-byte length prefix");
    }
    int length = (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff;
    if (length != bytes.length - PREFIX) {
      throw malformed("the length prefix says " + Integer.toUnsignedString(length) + " byte(s) of JSONB, but "
          + (bytes.length - PREFIX) + " follow");
    }
    if (length == 0) {
      throw malformed("no JSONB after the length prefix");
    }
    Object value;
    try {
      value = parse(bytes, length);
    } catch (CheckedAutoType.Refused refused) {
      throw refused.refusal();
    } catch (RuntimeException | StackOverflowError e) {
      ClassNotAllowedException refused = refusal(e);
      if (refused != null) {
        throw refused;
      }
      // Garbage makes fastjson2 fail in many ways (JSONException, indexes out of bounds, class casts, ...);
      // to the caller all of them are malformed input.
      throw new IOException("Malformed fastjson2 " + type.getTypeName() + ": " + e, e);
    }
    if (value == null) {
      return rawClass == Optional.class ? Optional.empty() : null;
    }
    if (!expectedClass.isInstance(value)) {
      throw new IOException("Expected fastjson2 " + type.getTypeName() + " but read a " + value.getClass().getName()
          + (value instanceof Map ? " (is the class on the class path and allowed?)" : ""));
    }
    return value;
  }

  private Object parse(byte[] bytes, int length) throws IOException {
    if (length == 1 && bytes[PREFIX] == JSONB.Constants.BC_NULL) {
      // fastjson2's Optional reader cannot read a null by itself.
      return null;
    }
    JSONReader.Context context = new JSONReader.Context(readers, autoType, Fastjson2ObjectSerialization.READ_FEATURES);
    try (JSONReader jsonReader = JSONReader.ofJSONB(bytes, PREFIX, length, context)) {
      // An Object is whatever the bytes hold, as fastjson2's own JSONB.parseObject reads it.
      Object value = type == Object.class ? jsonReader.readAny() : reader().readJSONBObject(jsonReader, type, null, 0);
      jsonReader.handleResolveTasks(value);
      if (!jsonReader.isEnd()) {
        throw malformed("bytes follow the value");
      }
      return value;
    }
  }

  private ObjectReader<?> reader() {
    ObjectReader<?> known = reader;
    if (known == null) {
      known = readers.getObjectReader(type, true);
      reader = known;
    }
    return known;
  }

  private IOException malformed(String problem) {
    return new IOException("Malformed fastjson2 " + type.getTypeName() + ": " + problem);
  }

  /** The refusal that ended a read, wherever fastjson2 wrapped it (a field, a list element, ...). */
  private static ClassNotAllowedException refusal(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ClassNotAllowedException) {
        return (ClassNotAllowedException) cause;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "Fastjson2Codec{" + type.getTypeName() + '}';
  }
}
