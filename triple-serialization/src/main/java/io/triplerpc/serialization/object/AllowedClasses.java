package io.triplerpc.serialization.object;

import static java.util.Objects.requireNonNull;

import io.triplerpc.serialization.internal.ReachableClasses;
import io.triplerpc.serialization.internal.SafeJdkClasses;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The classes a reader may instantiate for one service (or one declared type): what an {@link ObjectCodec}
 * checks every class name a peer writes against, before it loads or builds anything of that class.
 *
 * <p>A class is allowed when
 * <ol>
 *   <li>the service's signatures reach it: parameter, result and stream element types, declared
 *       exceptions, their type arguments, and for application classes their supertypes and the declared
 *       types of their fields, recursively;
 *   <li>it is one of the JDK value types every service may receive (boxed primitives, {@code String},
 *       {@code BigDecimal}, {@code BigInteger}, {@code java.time} values, {@code UUID}, {@code Optional},
 *       common collections and maps, common exceptions and {@code StackTraceElement}), named class by class;
 *   <li>an allow list names it or a package prefix of it ({@link DeserializationAllowList}: the server's or
 *       client's own, {@value DeserializationAllowList#RESOURCE} resources, the
 *       {@value DeserializationAllowList#PROPERTY} system property); or
 *   <li>it is an application class that extends or implements an application class that types one of
 *       those slots (a parameter, result, exception, field or type argument), which is what declaring a
 *       non-final type means (to tell, the class is loaded without being initialized). A class reached only
 *       as a supertype opens nothing: no slot takes its other subclasses.
 * </ol>
 * A class allowed by the last two rules brings what its own fields reach, as a declared one does. Arrays
 * are allowed when their element class is. Whatever {@code java.}, {@code javax.}, {@code jdk.},
 * {@code sun.} or {@code com.sun.} class is not named by rule 1 or 2 or an allow list is refused. A name
 * no class of the loader has passes, since there is nothing to instantiate: hessian then reads the value
 * as the declared type or a map, as Dubbo does with a subclass that only the peer has.
 *
 * <p>Built once per service when it is exported or referred; thread-safe, and {@link #allows} never blocks.
 */
public final class AllowedClasses {

  private static final Map<TypeKey, AllowedClasses> FOR_TYPE = new ConcurrentHashMap<>();

  /** What the refusals name: "service com.acme.Accounts". */
  private final String owner;
  private final ClassLoader loader;
  /** Reached from the declared types, plus the safe JDK classes; never changes. */
  private final Set<String> declared;
  /** Classes allowed since, and what they reach; only grows. */
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();
  /** Application classes that type a slot, whose subclasses are allowed; only grows. */
  private final List<Class<?>> extensible = new CopyOnWriteArrayList<>();
  private final DeserializationAllowList configured;
  private final DeserializationAllowList environment;

  private AllowedClasses(String owner, ClassLoader loader, Collection<? extends Type> types,
      DeserializationAllowList configured) {
    this.owner = owner;
    this.loader = loader != null ? loader : AllowedClasses.class.getClassLoader();
    this.configured = configured;
    this.environment = DeserializationAllowList.fromEnvironment(this.loader);
    Set<String> names = new HashSet<>(SafeJdkClasses.NAMES);
    List<Class<?>> roots = new ArrayList<>();
    ReachableClasses walk = new ReachableClasses(names, roots);
    for (Type type : types) {
      walk.walk(type);
    }
    this.declared = Set.copyOf(names);
    this.extensible.addAll(roots);
  }

  /**
   * The classes a service may read: those {@code declaredTypes} reach (type variables resolved), the safe
   * JDK classes, and what {@code configured}, the class path and the system property allow.
   *
   * @param owner names the service in refusals, such as {@code "service com.acme.Accounts"}
   * @param loader where classes named on the wire are loaded from, normally the service interface's loader
   * @param configured the server's or client's allow list; it may still grow
   * @throws IllegalArgumentException if an allow list resource or the system property has a bad entry
   */
  public static AllowedClasses forTypes(String owner, Collection<? extends Type> declaredTypes, ClassLoader loader,
      DeserializationAllowList configured) {
    return new AllowedClasses(requireNonNull(owner, "owner"), loader, List.copyOf(declaredTypes),
        requireNonNull(configured, "configured"));
  }

  /**
   * The classes a lone value declared as {@code type} may be made of, with no allow list of its own beyond
   * the class path's and the system property's. One instance per type and loader, so that serializations
   * keep one set of caches for it however often this is asked.
   */
  public static AllowedClasses forType(Type type, ClassLoader loader) {
    ClassLoader key = loader != null ? loader : AllowedClasses.class.getClassLoader();
    return FOR_TYPE.computeIfAbsent(new TypeKey(type, key), k ->
        forTypes("type " + type.getTypeName(), List.of(type), key, DeserializationAllowList.create()));
  }

  /** What refusals name, such as {@code "service com.acme.Accounts"}. */
  public String owner() {
    return owner;
  }

  /**
   * Whether a peer may make a value of the class named {@code className} ({@code Class.getName()}, or an
   * array of it as hessian ({@code [com.acme.User}) or the JVM ({@code [Lcom.acme.User;}) names it).
   */
  public boolean allows(String className) {
    String name = elementName(className);
    if (name.isEmpty()) {
      return false;
    }
    if (name.length() == 1 && className.startsWith("[") && "ZBCSIJFD".indexOf(name.charAt(0)) >= 0) {
      return true;
    }
    if (declared.contains(name) || admitted.contains(name)) {
      return true;
    }
    if (configured.allows(name) || environment.allows(name)) {
      admit(name, load(name));
      return true;
    }
    if (SafeJdkClasses.isPlatform(name)) {
      return false;
    }
    Class<?> type = load(name);
    if (type == null) {
      // Nothing of that name exists here to build: hessian reads it as the declared type or a map (as Dubbo
      // does for a subclass only the peer has), Jackson fails.
      return true;
    }
    for (Class<?> supertype : extensible) {
      if (supertype.isAssignableFrom(type)) {
        admit(name, type);
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses what {@link #allows} does not allow.
   *
   * @throws ClassNotAllowedException naming the class, the service, and how to allow it
   */
  public void check(String className) throws ClassNotAllowedException {
    if (!allows(className)) {
      throw refusal(className);
    }
  }

  /** The exception {@link #check} throws for {@code className}. */
  public ClassNotAllowedException refusal(String className) {
    String name = elementName(className);
    return new ClassNotAllowedException(name, "class " + name + " is not allowed to be deserialized for "
        + owner + ": the service's signatures do not reach it and no allow list names it; if it is safe, allow"
        + " it with allowDeserialization(\"" + name + "\") on the server or client builder, a line in "
        + DeserializationAllowList.RESOURCE + ", or -D" + DeserializationAllowList.PROPERTY + "=" + name);
  }

  private void admit(String name, Class<?> type) {
    admitted.add(name);
    if (type == null) {
      return;
    }
    Set<String> names = new HashSet<>();
    List<Class<?>> roots = new ArrayList<>();
    new ReachableClasses(names, roots).walk(type);
    admitted.addAll(names);
    for (Class<?> root : roots) {
      if (!extensible.contains(root)) {
        extensible.add(root);
      }
    }
  }

  /** Loads {@code name} without initializing it, so none of its code runs; null if it cannot be loaded. */
  private Class<?> load(String name) {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  private static String elementName(String className) {
    int dimensions = 0;
    while (dimensions < className.length() && className.charAt(dimensions) == '[') {
      dimensions++;
    }
    String name = className.substring(dimensions);
    if (dimensions > 0 && name.length() > 2 && name.charAt(0) == 'L' && name.endsWith(";")) {
      return name.substring(1, name.length() - 1);
    }
    return name;
  }

  @Override
  public String toString() {
    return "AllowedClasses{" + owner + ", " + (declared.size() - SafeJdkClasses.NAMES.size()) + " declared, "
        + admitted.size() + " admitted, " + configured + '}';
  }

  private record TypeKey(Type type, ClassLoader loader) {}
}
