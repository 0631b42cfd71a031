package io.triplerpc.serialization.object;

import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Selects an {@link ObjectSerialization} by name, as a service's configuration names it
 * ({@code @TripleService(serialization = "fastjson2")}).
 */
public final class ObjectSerializations {

  /** Hessian 2 through hessian-lite, the default for non-protobuf services, as in Dubbo. */
  public static final String HESSIAN2 = "hessian2";

  /** fastjson2's binary JSONB, as Dubbo 3.3 writes it; Dubbo's other serialization. */
  public static final String FASTJSON2 = "fastjson2";

  /**
   * Text JSON through Jackson, readable with curl; Triple's own, which Dubbo 3.3 does not have (its JSON-family
   * serialization is {@value #FASTJSON2}).
   */
  public static final String JACKSON = "jackson";

  /** The serialization a non-protobuf service uses when it names none. */
  public static final String DEFAULT = HESSIAN2;

  private static final List<ObjectSerialization> INSTALLED =
      ServiceLoader.load(ObjectSerialization.class, ObjectSerializations.class.getClassLoader()).stream()
          .map(ServiceLoader.Provider::get)
          .collect(Collectors.toUnmodifiableList());

  private ObjectSerializations() {}

  /** The object serializations found on the class path, in discovery order. */
  public static List<ObjectSerialization> installed() {
    return INSTALLED;
  }

  /**
   * Returns the installed serialization whose {@link ObjectSerialization#name() name} or
   * {@link ObjectSerialization#wireName() wire name} is {@code name}, ignoring case; so {@code "hessian2"} and
   * {@code "hessian4"} select the same one.
   *
   * @throws IllegalArgumentException if none matches, listing what is installed
   */
  public static ObjectSerialization named(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    for (ObjectSerialization serialization : INSTALLED) {
      if (serialization.name().equals(wanted) || serialization.wireName().equals(wanted)) {
        return serialization;
      }
    }
    throw new IllegalArgumentException("No object serialization named '" + name + "'; installed: "
        + INSTALLED.stream().map(ObjectSerialization::name).collect(Collectors.toList()));
  }

  /** The default serialization, {@value #DEFAULT}. */
  public static ObjectSerialization defaultSerialization() {
    return named(DEFAULT);
  }
}
