package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONB;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import com.alibaba.fastjson2.writer.ObjectWriter;
import com.alibaba.fastjson2.writer.ObjectWriterProvider;
import io.triplerpc.serialization.internal.DeclaredTypeCodec;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * fastjson2 codec of one declared type: one value as a 4-byte big-endian length and that many bytes of
 * JSONB, as Dubbo frames each value it writes with fastjson2.
 */
final class Fastjson2Codec extends DeclaredTypeCodec {

  /** The length prefix before each value's JSONB. */
  private static final int PREFIX = Integer.BYTES;

  private final ObjectReaderProvider readers;
  private final CheckedAutoType autoType;
  private final ObjectWriterProvider writers;
  private final ReaderOnFirstUse reader;

  Fastjson2Codec(Type type, ObjectReaderProvider readers, CheckedAutoType autoType, ObjectWriterProvider writers) {
    super(type, "fastjson2");
    this.readers = readers;
    this.autoType = autoType;
    this.writers = writers;
    this.reader = new ReaderOnFirstUse(readers, type);
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
      throw cannotWrite(value, e);
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
    try {
      JsonbShape.check(bytes, PREFIX, length);
    } catch (IllegalArgumentException e) {
      throw malformed(e.getMessage());
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
      throw malformed(e.toString(), e);
    } catch (OutOfMemoryError e) {
      // JsonbShape has walked every element each count declares, so what fastjson2 sizes grows with the
      // bytes; should it still ask for more than an array holds, the allocation failed and holds nothing.
      throw malformed("it declares more than memory holds (" + e.getMessage() + ")", e);
    }
    return checked(value);
  }

  private Object parse(byte[] bytes, int length) throws IOException {
    if (length == 1 && bytes[PREFIX] == JSONB.Constants.BC_NULL) {
      // fastjson2's Optional reader cannot read a null by itself.
      return null;
    }
    JSONReader.Context context = new JSONReader.Context(readers, autoType, Fastjson2ObjectSerialization.READ_FEATURES);
    try (JSONReader jsonReader = JSONReader.ofJSONB(bytes, PREFIX, length, context)) {
      // An Object is whatever the bytes hold, as fastjson2's own JSONB.parseObject reads it.
      Object value = type == Object.class ? jsonReader.readAny() : reader.get().readJSONBObject(jsonReader, type, null, 0);
      jsonReader.handleResolveTasks(value);
      if (!jsonReader.isEnd()) {
        throw malformed("bytes follow the value");
      }
      return value;
    }
  }
}
