package io.triplerpc.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The architecture rules every module's ArchUnit test states about its own classes. */
public final class ArchitectureRules {

  private ArchitectureRules() {}

  /** The main classes of the module {@code anyClass} belongs to: where it was loaded from, not the jars beside it. */
  public static JavaClasses moduleOf(Class<?> anyClass) {
    return new ClassFileImporter()
        .importLocations(Set.of(Location.of(anyClass.getProtectionDomain().getCodeSource().getLocation())));
  }

  /**
   * Classes of {@code apiPackages} (each without its subpackages) never depend on a class of an
   * {@code internal} package below {@code root}.
   */
  public static ArchRule apiNeverDependsOnInternal(String root, String... apiPackages) {
    return noClasses().that().resideInAnyPackage(apiPackages)
        .should().dependOnClassesThat().resideInAPackage(root + "..internal..")
        .as("the API (" + String.join(", ", apiPackages) + ") never depends on " + root + "'s internal packages")
        .because("users may rely on the API only, and the implementation must stay free to change");
  }

  /**
   * Classes of {@code apiPackages} depend on {@code internal} packages below {@code root} only where an
   * entry point of the API makes its implementation ({@code TripleClient.builder()} constructing
   * {@code TripleClientBuilder}): each key of {@code entryPoints} may depend on its value, and on
   * nothing else internal; every other API class on nothing internal.
   */
  public static ArchRule apiDependsOnInternalOnlyThroughEntryPoints(
      String root, Map<Class<?>, Class<?>> entryPoints, String... apiPackages) {
    return classes().that().resideInAnyPackage(apiPackages)
        .should(new ArchCondition<>("depend on " + root + "'s internal packages only through the entry points "
            + entryPoints) {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
              JavaClass target = dependency.getTargetClass();
              JavaClass base = target.isArray() ? target.getBaseComponentType() : target;
              if (!base.getPackageName().startsWith(root) || !base.getPackageName().contains(".internal")) {
                continue;
              }
              Class<?> origin = reflect(type);
              Class<?> allowed = origin == null ? null : entryPoints.get(origin);
              if (allowed == null || !base.isEquivalentTo(allowed)) {
                events.add(SimpleConditionEvent.violated(type, dependency.getDescription()));
              }
            }
          }

          private Class<?> reflect(JavaClass type) {
            for (Class<?> entryPoint : entryPoints.keySet()) {
              if (type.isEquivalentTo(entryPoint)) {
                return entryPoint;
              }
            }
            return null;
          }
        })
        .because("users may rely on the API only, and the implementation must stay free to change: the API"
            + " reaches it by one plain call per entry point, never by reflection or a lookup");
  }

  /**
   * No public or protected member of a public class outside {@code internal} packages below
   * {@code root} (nor such a class's supertypes) names a type of an internal package: whatever a module's
   * entry points use inside, users never hold an internal type.
   */
  public static ArchRule publicSignaturesNameNoInternalType(String root) {
    return classes().that().arePublic().and().resideInAPackage(root + "..")
        .and().resideOutsideOfPackage(root + "..internal..")
        .should(new ArchCondition<>("name no internal type in their public signatures") {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            List<String> leaks = new ArrayList<>();
            type.getRawSuperclass().ifPresent(superclass -> note(leaks, "extends", superclass));
            type.getRawInterfaces().forEach(implemented -> note(leaks, "implements", implemented));
            for (JavaMember member : type.getMembers()) {
              Set<JavaModifier> modifiers = member.getModifiers();
              if (!modifiers.contains(JavaModifier.PUBLIC) && !modifiers.contains(JavaModifier.PROTECTED)) {
                continue;
              }
              if (member instanceof JavaField) {
                note(leaks, member.getFullName(), ((JavaField) member).getRawType());
              } else if (member instanceof JavaCodeUnit) {
                JavaCodeUnit code = (JavaCodeUnit) member;
                note(leaks, code.getFullName() + " returns", code.getRawReturnType());
                code.getRawParameterTypes().forEach(parameter -> note(leaks, code.getFullName() + " takes", parameter));
              }
            }
            for (String leak : leaks) {
              events.add(SimpleConditionEvent.violated(type, type.getName() + ": " + leak));
            }
          }

          private void note(List<String> leaks, String where, JavaClass used) {
            JavaClass base = used.isArray() ? used.getBaseComponentType() : used;
            if (base.getPackageName().startsWith(root) && base.getPackageName().contains(".internal")) {
              leaks.add(where + " " + base.getName());
            }
          }
        })
        .because("internal types may change at any time; a public signature that names one makes it API");
  }

  /**
   * Test classes that poll with {@link AwaitPeers} start another process (a call of
   * {@code ProcessBuilder.start} or {@code Runtime.exec}), themselves or through a class of their own
   * test sources that they use, directly or not: polling is for peers in other processes only, and
   * in-process code under test is awaited on its own signal ({@link Signal}, a latch, a future).
   * Applied to the test classes of the module {@code anyTestClass} belongs to (see {@link #moduleOf}).
   *
   * @param pending names of test classes let off for now; each caller says why beside it
   */
  public static ArchRule awaitPeersOnlyWhereAProcessStarts(Class<?> anyTestClass, String... pending) {
    Path testSources = where(anyTestClass.getProtectionDomain().getCodeSource().getLocation().toString());
    Set<String> exempt = Set.of(pending);
    return classes().should(new ArchCondition<>("start another process wherever they poll with AwaitPeers") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        if (!calls(type, AwaitPeers.class.getName(), "until") || exempt.contains(outermost(type).getName())) {
          return;
        }
        if (!startsAProcess(type, testSources)) {
          events.add(SimpleConditionEvent.violated(type, type.getName() + " polls with AwaitPeers but starts no"
              + " process: await the code under test's own signal instead (Signal, a latch, a future)"));
        }
      }
    }).because("polling an in-process peer waits for time, not for the event, and slows every build");
  }

  /** The file a {@code file:} URI names, or null for another scheme (a class in a jar). */
  private static Path where(String uri) {
    return uri.startsWith("file:") ? Path.of(URI.create(uri)).normalize() : null;
  }

  private static JavaClass outermost(JavaClass type) {
    JavaClass outer = type;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return outer;
  }

  private static boolean calls(JavaClass type, String owner, String... methods) {
    Set<String> names = Set.of(methods);
    return type.getMethodCallsFromSelf().stream()
        .anyMatch(call -> call.getTargetOwner().getName().equals(owner) && names.contains(call.getName()));
  }

  /** Whether {@code start}, or a class of the same test sources it reaches, starts a process. */
  private static boolean startsAProcess(JavaClass start, Path testSources) {
    Set<JavaClass> seen = new HashSet<>();
    Deque<JavaClass> next = new ArrayDeque<>(List.of(start));
    while (!next.isEmpty()) {
      JavaClass type = next.poll();
      if (!seen.add(type)) {
        continue;
      }
      if (calls(type, ProcessBuilder.class.getName(), "start", "startPipeline")
          || calls(type, Runtime.class.getName(), "exec")) {
        return true;
      }
      for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
        JavaClass target = dependency.getTargetClass();
        boolean sameSources = target.getSource()
            .map(source -> where(source.getUri().toString()))
            .map(file -> file != null && file.startsWith(testSources)).orElse(false);
        if (sameSources) {
          next.add(target);
        }
      }
    }
    return false;
  }
}
