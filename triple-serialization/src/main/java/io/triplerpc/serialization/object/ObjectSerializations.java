package io.triplerpc.serialization.object;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Selects an {@link ObjectSerialization} by name, as a service's configuration names it
 * ({@code @TripleService(serialization = "jackson")}).
 *
 * <p>hessian2 and jackson come with {@code triple-serialization}. fastjson2 is a plug-in in an artifact of its
 * own, {@value #FASTJSON2_ARTIFACT}, found with {@link ServiceLoader} when it is on the class path: naming
 * fastjson2 without it fails with an error that names the artifact to add.
 */
public final class ObjectSerializations {

  /** Hessian 2 through hessian-lite, the default for non-protobuf services, as in Dubbo. */
  public static final String HESSIAN2 = "hessian2";

  /**
   * fastjson2's binary JSONB, as Dubbo 3.3 writes it; Dubbo's other serialization. Installed only with
   * {@value #FASTJSON2_ARTIFACT}.
   */
  public static final String FASTJSON2 = "fastjson2";

  /**
   * Text JSON through Jackson, readable with curl; Triple's own, which Dubbo 3.3 does not have (its JSON-family
   * serialization is {@value #FASTJSON2}).
   */
  public static final String JACKSON = "jackson";

  /** The serialization a non-protobuf service uses when it names none. */
  public static final String DEFAULT = HESSIAN2;

  /** The Maven coordinates of the artifact that installs {@value #FASTJSON2}. */
  public static final String FASTJSON2_ARTIFACT = "io.triplerpc:triple-serialization-fastjson2";

  /** Serializations Triple knows but does not install by default: name (and wire name) to artifact. */
  private static final Map<String, String> PLUG_INS = Map.of(FASTJSON2, FASTJSON2_ARTIFACT);

  /**
   * The order of the serializations Triple knows, whatever the class path's: a server advertises what it reads
   * in this order ({@code hessian2,fastjson2,jackson}); others follow in discovery order.
   */
  private static final List<String> ORDER = List.of(HESSIAN2, FASTJSON2, JACKSON);

  private static final List<ObjectSerialization> INSTALLED = load();

  private ObjectSerializations() {}

  private static List<ObjectSerialization> load() {
    List<ObjectSerialization> found = new ArrayList<>();
    ServiceLoader.load(ObjectSerialization.class, ObjectSerializations.class.getClassLoader()).stream()
        .map(ServiceLoader.Provider::get)
        .forEach(found::add);
    // A stable sort: known names in ORDER, then the rest as discovered.
    found.sort(Comparator.comparingInt(serialization -> {
      int rank = ORDER.indexOf(serialization.name());
      return rank < 0 ? ORDER.size() : rank;
    }));
    return List.copyOf(found);
  }

  /** The object serializations found on the class path: hessian2, fastjson2 (if installed), jackson, others. */
  public static List<ObjectSerialization> installed() {
    return INSTALLED;
  }

  /**
   * Returns the installed serialization whose {@link ObjectSerialization#name() name} or
   * {@link ObjectSerialization#wireName() wire name} is {@code name}, ignoring case; so {@code "hessian2"} and
   * {@code "hessian4"} select the same one.
   *
   * @throws IllegalStateException if {@code name} is a serialization whose artifact is not on the class path
   *     (fastjson2 without {@value #FASTJSON2_ARTIFACT}), naming that artifact
   * @throws IllegalArgumentException if no serialization has that name, listing what is installed
   */
  public static ObjectSerialization named(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    for (ObjectSerialization serialization : INSTALLED) {
      if (serialization.name().equals(wanted) || serialization.wireName().equals(wanted)) {
        return serialization;
      }
    }
    String artifact = PLUG_INS.get(wanted);
    if (artifact != null) {
      throw new IllegalStateException(notInstalled(wanted, artifact));
    }
    throw new IllegalArgumentException("No object serialization named '" + name + "'; installed: " + names());
  }

  /**
   * The Maven coordinates ({@code groupId:artifactId}) of the artifact that installs the serialization named
   * {@code nameOrWireName} when it is not installed, such as {@value #FASTJSON2_ARTIFACT} for
   * {@code "fastjson2"}; null if it is installed or Triple knows no artifact of that name.
   */
  public static String missingArtifact(String nameOrWireName) {
    String wanted = nameOrWireName.toLowerCase(Locale.ROOT);
    for (ObjectSerialization serialization : INSTALLED) {
      if (serialization.name().equals(wanted) || serialization.readsWireName(wanted)) {
        return null;
      }
    }
    return PLUG_INS.get(wanted);
  }

  /** Says that {@code name} needs {@code artifact}, and what to do. */
  private static String notInstalled(String name, String artifact) {
    return "The " + name + " serialization is in " + artifact + ", which is not on the class path: add that"
        + " dependency (installed: " + names() + ")";
  }

  private static List<String> names() {
    return INSTALLED.stream().map(ObjectSerialization::name).collect(Collectors.toList());
  }

  /** The default serialization, {@value #DEFAULT}. */
  public static ObjectSerialization defaultSerialization() {
    return named(DEFAULT);
  }
}
