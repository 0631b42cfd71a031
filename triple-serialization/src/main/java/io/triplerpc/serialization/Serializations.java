package io.triplerpc.serialization;

import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Finds the {@link Serialization} for a message type among those on the class path. */
public final class Serializations {

  private static final List<Serialization> INSTALLED =
      ServiceLoader.load(Serialization.class, Serializations.class.getClassLoader()).stream()
          .map(ServiceLoader.Provider::get)
          .collect(Collectors.toUnmodifiableList());

  private Serializations() {}

  /** The serializations found on the class path, in discovery order. */
  public static List<Serialization> installed() {
    return INSTALLED;
  }

  /**
   * Returns the codec of the first installed serialization that supports {@code type}.
   *
   * @throws IllegalArgumentException if none does, naming the type and what is installed
   */
  public static <T> MessageCodec<T> codecFor(Class<T> type) {
    for (Serialization serialization : INSTALLED) {
      if (serialization.supports(type)) {
        return serialization.codecFor(type);
      }
    }
    throw new IllegalArgumentException(
        "No serialization on the class path can carry " + type.getName() + "; installed: "
            + INSTALLED.stream().map(Serialization::name).collect(Collectors.toList()));
  }
}
