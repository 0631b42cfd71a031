package io.triplerpc.serialization.json;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import io.triplerpc.serialization.internal.DeclaredTypeCodec;
import io.triplerpc.serialization.object.AllowedClasses;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/** Jackson codec of one declared type: a reader and a writer bound to it once, generics included. */
final class JsonCodec extends DeclaredTypeCodec {

  private final ObjectReader reader;
  private final ObjectWriter writer;
  private final AllowedClasses allowed;

  JsonCodec(Type type, ObjectReader reader, ObjectWriter writer, AllowedClasses allowed) {
    super(type, "JSON");
    this.reader = reader;
    this.writer = writer;
    this.allowed = allowed;
  }

  @Override
  public void write(Object value, OutputStream out) throws IOException {
    try {
      writer.writeValue(out, value);
    } catch (IOException | RuntimeException e) {
      throw cannotWrite(value, e);
    }
  }

  @Override
  public Object read(InputStream in) throws IOException {
    Object value;
    try {
      value = reader.readValue(in);
    } catch (IOException | RuntimeException e) {
      String refused = refusedTypeId(e);
      if (refused != null) {
        throw allowed.refusal(refused);
      }
      throw malformed(e.getMessage(), e);
    }
    // Jackson already made a value of the declared type; only a null needs mapping.
    return value == null ? nullValue() : value;
  }

  /** The class name a type id held that the validator refused, wherever Jackson wrapped the failure. */
  private String refusedTypeId(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidTypeIdException) {
        String id = ((InvalidTypeIdException) cause).getTypeId();
        if (id != null && !allowed.allows(id)) {
          return id;
        }
      }
    }
    return null;
  }
}
