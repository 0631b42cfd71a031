package io.triplerpc.serialization.wrapper;

import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.json.JsonObjectSerialization;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * A plain Java method's result, or an exception it threw, as a JSON body (Connect unary and curl), by
 * the JSON serialization's codec of its declared type.
 */
final class JsonValue<T> implements MessageCodec<T> {

  private final String where;
  private final Class<T> valueClass;
  private final ObjectCodec codec;

  JsonValue(String where, ClassLoader classLoader, Type type, Class<T> valueClass, AllowedClasses allowed) {
    this.where = where;
    this.valueClass = valueClass;
    this.codec = new JsonObjectSerialization().codecFor(type, classLoader, allowed);
  }

  @Override
  public String subtype() {
    return JsonArguments.SUBTYPE;
  }

  @Override
  public int serializedSize(T value) {
    return -1;
  }

  @Override
  public void write(T value, OutputStream out) throws IOException {
    codec.write(value, out);
  }

  @Override
  public T read(InputStream in) throws IOException {
    try {
      return valueClass.cast(codec.read(in));
    } catch (MalformedMessageException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new MalformedMessageException("Malformed JSON for the result of " + where + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "JsonValue{" + where + '}';
  }
}
