package io.triplerpc.serialization.object;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Classes a user allows to be deserialized beyond those a service's signatures reach (see
 * {@link AllowedClasses}): exact class names ({@code com.acme.Money}, {@code com.acme.Outer$Inner}) and
 * package prefixes, which end with a dot ({@code com.acme.model.}) and cover every class below them.
 *
 * <p>Three places fill allow lists, and all of them add up (nothing here can deny):
 * <ul>
 *   <li>in code, per server or client, with {@code allowDeserialization(...)} on their builders;
 *   <li>every class-path resource {@value #RESOURCE} the service interface's class loader sees, one entry a
 *       line, {@code #} starting a comment;
 *   <li>the system property {@value #PROPERTY}, entries separated by commas, read when a service is
 *       exported or referred.
 * </ul>
 *
 * <p>Thread-safe. A list only grows: a server builder's list may still receive entries after services were
 * added to the builder, and they apply to those services too. Entries are checked when added: a prefix
 * must name at least two package levels ({@code com.acme.}, not {@code com.}), and wildcards are refused.
 */
public final class DeserializationAllowList {

  /** The class-path resource that lists allowed classes and prefixes, one a line. */
  public static final String RESOURCE = "META-INF/triple/serialize.allowlist";

  /** The system property that lists allowed classes and prefixes, separated by commas. */
  public static final String PROPERTY = "triple.serialization.allow";

  private static final String[] NONE = {};

  /** Exact class names; replaced, never mutated, under this list's lock. */
  private volatile Set<String> names = Set.of();
  /** Package prefixes, each ending with a dot; replaced, never mutated, under this list's lock. */
  private volatile String[] prefixes = NONE;

  private DeserializationAllowList() {}

  /** An empty list, to be filled with {@link #add}. */
  public static DeserializationAllowList create() {
    return new DeserializationAllowList();
  }

  /** A list of {@code entries}: class names and prefixes ending with a dot. */
  public static DeserializationAllowList of(String... entries) {
    return create().add(entries);
  }

  /**
   * What the class path ({@value #RESOURCE} as seen by {@code loader}) and the system property
   * {@value #PROPERTY} allow, read now.
   *
   * @throws IllegalArgumentException if an entry is malformed, naming where it came from
   */
  public static DeserializationAllowList fromEnvironment(ClassLoader loader) {
    DeserializationAllowList list = create();
    ClassLoader resources = loader != null ? loader : DeserializationAllowList.class.getClassLoader();
    try {
      Enumeration<URL> urls = resources.getResources(RESOURCE);
      while (urls.hasMoreElements()) {
        URL url = urls.nextElement();
        try (BufferedReader reader =
            new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
          for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            int comment = line.indexOf('#');
            String entry = (comment < 0 ? line : line.substring(0, comment)).trim();
            if (!entry.isEmpty()) {
              list.add(url, entry);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE + ": " + e.getMessage(), e);
    }
    String property = System.getProperty(PROPERTY, "");
    for (String entry : property.split(",")) {
      if (!entry.isBlank()) {
        list.add("-D" + PROPERTY, entry.trim());
      }
    }
    return list;
  }

  /**
   * Adds {@code entries}: exact class names, and package prefixes that end with a dot.
   *
   * @throws IllegalArgumentException if an entry is empty, not a class or package name, a wildcard, or a
   *     prefix of fewer than two package levels
   */
  public DeserializationAllowList add(String... entries) {
    requireNonNull(entries, "entries");
    for (String entry : entries) {
      add("allowDeserialization", requireNonNull(entry, "entry").trim());
    }
    return this;
  }

  private synchronized void add(Object source, String entry) {
    String problem = problem(entry);
    if (problem != null) {
      throw new IllegalArgumentException("Bad deserialization allow list entry '" + entry + "' from " + source
          + ": " + problem);
    }
    if (entry.endsWith(".")) {
      List<String> grown = new ArrayList<>(List.of(prefixes));
      if (!grown.contains(entry)) {
        grown.add(entry);
        prefixes = grown.toArray(NONE);
      }
    } else if (!names.contains(entry)) {
      Set<String> grown = new LinkedHashSet<>(names);
      grown.add(entry);
      names = Set.copyOf(grown);
    }
  }

  private static String problem(String entry) {
    if (entry.isEmpty()) {
      return "empty";
    }
    if (entry.indexOf('*') >= 0) {
      return "wildcards are not supported; end a package prefix with a dot, as in com.acme.model.";
    }
    String body = entry.endsWith(".") ? entry.substring(0, entry.length() - 1) : entry;
    for (String part : body.split("\\.", -1)) {
      if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0))
          || !part.chars().allMatch(Character::isJavaIdentifierPart)) {
        return "not a class name or a package prefix ending with a dot";
      }
    }
    if (entry.endsWith(".") && body.indexOf('.') < 0) {
      return "a prefix must name at least two package levels, such as com.acme.";
    }
    return null;
  }

  /**
   * A list with this one's entries as they are now: what is added to either later leaves the other as it
   * is (a built client or server keeps the list it was built with).
   */
  public synchronized DeserializationAllowList copy() {
    DeserializationAllowList copy = new DeserializationAllowList();
    copy.names = names;
    copy.prefixes = prefixes;
    return copy;
  }

  /** Whether {@code className} is named here exactly or lies below one of the prefixes. */
  public boolean allows(String className) {
    if (names.contains(className)) {
      return true;
    }
    for (String prefix : prefixes) {
      if (className.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** Whether nothing was added. */
  public boolean isEmpty() {
    return names.isEmpty() && prefixes.length == 0;
  }

  @Override
  public String toString() {
    List<String> all = new ArrayList<>(names);
    all.addAll(List.of(prefixes));
    return "DeserializationAllowList" + all;
  }
}
