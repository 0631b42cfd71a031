package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import java.lang.reflect.Type;

/**
 * The reader of one type, made by its provider on first use (a service reads most types in one
 * serialization only). Thread-safe: the provider caches the reader, so a race makes it twice at worst.
 */
final class ReaderOnFirstUse {

  private final ObjectReaderProvider provider;
  private final Type type;
  /** Null until first used. */
  private volatile ObjectReader<?> reader;

  ReaderOnFirstUse(ObjectReaderProvider provider, Type type) {
    this.provider = provider;
    this.type = type;
  }

  ObjectReader<?> get() {
    ObjectReader<?> known = reader;
    if (known == null) {
      known = provider.getObjectReader(type, true);
      reader = known;
    }
    return known;
  }
}
