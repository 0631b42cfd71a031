package io.triplerpc.serialization.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.serialization.fastjson2.Fastjson2ObjectSerialization;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * {@code triple-serialization-fastjson2} is a plug-in of {@code triple-serialization}: it builds on that module
 * alone, and nothing but {@link java.util.ServiceLoader} finds it.
 */
class Fastjson2ArchitectureTest {

  private static final JavaClasses FASTJSON2 = ArchitectureRules.moduleOf(Fastjson2ObjectSerialization.class);

  @Test
  void theFastjson2PlugInDependsOnlyOnTheSerializationModule() {
    noClasses().should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.triplerpc..")
            .and(JavaClass.Predicates.resideOutsideOfPackage("io.triplerpc.serialization..")))
        .because("a serialization plug-in sits beside hessian2 and jackson, under core")
        .check(FASTJSON2);
  }
}
