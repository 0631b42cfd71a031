package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import java.lang.reflect.Type;
import java.util.Optional;

/**
 * Reads an {@link Optional}, which fastjson2 writes as its value or null: a null is
 * {@link Optional#empty()}. fastjson2's own reader hands a null to the value's reader, which fails for some
 * (an {@code Optional<Instant>} field that was empty); the bytes are the same either way.
 *
 * <p>One per declared {@code Optional} type and provider; thread-safe.
 */
final class OptionalReader implements ObjectReader<Optional<?>> {

  private final Type valueType;
  private final ReaderOnFirstUse valueReader;

  OptionalReader(Type valueType, ObjectReaderProvider provider) {
    this.valueType = valueType;
    this.valueReader = new ReaderOnFirstUse(provider, valueType);
  }

  @Override
  public Class<Optional<?>> getObjectClass() {
    @SuppressWarnings("unchecked")
    Class<Optional<?>> optional = (Class<Optional<?>>) (Class<?>) Optional.class;
    return optional;
  }

  @Override
  public Optional<?> readObject(JSONReader reader, Type fieldType, Object fieldName, long features) {
    if (reader.nextIfNull()) {
      return Optional.empty();
    }
    return Optional.ofNullable(valueType == Object.class ? reader.readAny()
        : valueReader.get().readObject(reader, valueType, fieldName, features));
  }

  @Override
  public Optional<?> readJSONBObject(JSONReader reader, Type fieldType, Object fieldName, long features) {
    if (reader.nextIfNull()) {
      return Optional.empty();
    }
    return Optional.ofNullable(valueType == Object.class ? reader.readAny()
        : valueReader.get().readJSONBObject(reader, valueType, fieldName, features));
  }
}
