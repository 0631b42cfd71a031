package io.triplerpc.serialization.security;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;

/**
 * Hessian 2 bytes written field by field, as an attacker writes them: no instance of the class they name
 * exists on the writing side (and its class is never loaded there).
 */
public final class HandBuiltHessian {

  private HandBuiltHessian() {}

  /** An object of class {@code className} with one string field {@code command}. */
  public static byte[] object(String className, String command) throws IOException {
    return write(out -> writeObject(out, className, "command", command));
  }

  /** An {@link Envelope} whose {@code attachment} is an object of class {@code className}. */
  public static byte[] envelopeAttaching(String className) throws IOException {
    return write(out -> {
      writeObjectStart(out, Envelope.class.getName(), "to", "attachment");
      out.writeString("victim");
      writeObject(out, className, "command", "touch /tmp/pwned");
    });
  }

  /** A typed list (as hessian writes a {@code List<Object>}) holding an object of {@code className}. */
  public static byte[] listHolding(String className) throws IOException {
    return write(out -> {
      out.writeListBegin(1, "java.util.ArrayList");
      writeObject(out, className, "command", "x");
    });
  }

  /** A one-element array whose element type is {@code className}, as hessian names arrays. */
  public static byte[] arrayOf(String className) throws IOException {
    return write(out -> {
      out.writeListBegin(1, "[" + className);
      writeObject(out, className, "command", "x");
    });
  }

  /** A map whose one value is an object of {@code className}. */
  public static byte[] mapHolding(String className) throws IOException {
    return write(out -> {
      out.writeMapBegin(null);
      out.writeString("key");
      writeObject(out, className, "command", "x");
      out.writeMapEnd();
    });
  }

  /** An object of {@code className} with the string fields {@code fields}, in order. */
  public static byte[] objectWithFields(String className, Map<String, String> fields) throws IOException {
    return write(out -> {
      writeObjectStart(out, className, fields.keySet().toArray(String[]::new));
      for (String value : fields.values()) {
        out.writeString(value);
      }
    });
  }

  private static void writeObject(Hessian2Output out, String className, String field, String value)
      throws IOException {
    writeObjectStart(out, className, field);
    out.writeString(value);
  }

  /** A class definition (the first time a class appears) and the start of one instance. */
  private static void writeObjectStart(Hessian2Output out, String className, String... fields) throws IOException {
    int definition = out.writeObjectBegin(className);
    if (definition == -1) {
      out.writeClassFieldLength(fields.length);
      for (String field : fields) {
        out.writeString(field);
      }
      out.writeObjectBegin(className);
    }
  }

  private interface Body {
    void writeTo(Hessian2Output out) throws IOException;
  }

  private static byte[] write(Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bytes);
    body.writeTo(out);
    out.flushBuffer();
    return bytes.toByteArray();
  }
}
