package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.modules.ObjectReaderModule;
import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.Optional;

/**
 * The readers one service's provider uses in place of fastjson2's for exceptions ({@link ThrowableReader})
 * and {@link Optional} ({@link OptionalReader}); registered first, so the provider asks it before its own
 * modules. The provider caches what it returns, per declared type.
 */
final class TripleReaders implements ObjectReaderModule {

  private final CheckedAutoType autoType;
  /** The provider this module is registered with; set once, by {@link #init}, before any read. */
  private volatile ObjectReaderProvider provider;

  TripleReaders(CheckedAutoType autoType) {
    this.autoType = autoType;
  }

  @Override
  public void init(ObjectReaderProvider provider) {
    this.provider = provider;
  }

  @Override
  @SuppressWarnings("unchecked")
  public ObjectReader<?> getObjectReader(ObjectReaderProvider asking, Type type) {
    if (type == Optional.class) {
      return new OptionalReader(Object.class, provider);
    }
    if (type instanceof ParameterizedType && ((ParameterizedType) type).getRawType() == Optional.class) {
      Type value = ((ParameterizedType) type).getActualTypeArguments()[0];
      return new OptionalReader(value instanceof WildcardType ? ((WildcardType) value).getUpperBounds()[0] : value,
          provider);
    }
    if (type instanceof Class<?> && Throwable.class.isAssignableFrom((Class<?>) type)) {
      return new ThrowableReader((Class<? extends Throwable>) type, provider, autoType);
    }
    return null;
  }
}
