package io.triplerpc.internal;

import io.triplerpc.Metadata;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A call's headers still in the transport's form. The {@link Metadata} that {@link LazyMetadata#of}
 * makes of one converts them when first read, so a call whose headers nobody reads never pays for the
 * conversion, and a look-up of one ASCII key (the server's version and group routing) reads the source
 * without converting the rest. It extends the JDK's function types because {@code Metadata}, public
 * API, takes it as those and knows no internal type.
 */
public interface HeaderSource extends Function<String, String>, Consumer<Metadata> {

  /**
   * The last value of application header {@code key} (lower case, not a {@code -bin} key) as received,
   * or null if there is none or the name is reserved.
   */
  String lastValue(String key);

  /** Adds every application header to {@code target}: reserved ones left out, binary ones decoded. */
  void copyTo(Metadata target);

  @Override
  default String apply(String key) {
    return lastValue(key);
  }

  @Override
  default void accept(Metadata target) {
    copyTo(target);
  }
}
