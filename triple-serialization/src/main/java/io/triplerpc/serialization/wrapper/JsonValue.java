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
  private final Type type;
  private final ClassLoader classLoader;
  private final AllowedClasses allowed;
  private final boolean plain;
  /** Made on first use: a plain codec has a mapper of its own, which only methods served over REST need. */
  private volatile ObjectCodec codec;

  /** @param plain whether to write no {@code "@class"} (see {@link JsonObjectSerialization#plainCodecFor}) */
  JsonValue(String where, ClassLoader classLoader, Type type, Class<T> valueClass, AllowedClasses allowed,
      boolean plain) {
    this.where = where;
    this.valueClass = valueClass;
    this.type = type;
    this.classLoader = classLoader;
    this.allowed = allowed;
    this.plain = plain;
  }

  private ObjectCodec codec() {
    ObjectCodec made = codec;
    if (made == null) {
      // Two threads may both make one; either will do.
      made = plain ? JsonObjectSerialization.plainCodecFor(type, classLoader, allowed)
          : new JsonObjectSerialization().codecFor(type, classLoader, allowed);
      codec = made;
    }
    return made;
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
    codec().write(value, out);
  }

  @Override
  public T read(InputStream in) throws IOException {
    try {
      return valueClass.cast(codec().read(in));
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
