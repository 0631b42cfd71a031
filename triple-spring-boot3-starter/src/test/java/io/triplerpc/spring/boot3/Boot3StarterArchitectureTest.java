package io.triplerpc.spring.boot3;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** What the shared sources must keep for this starter to run on triple-netty-shaded and Boot 3.5. */
class Boot3StarterArchitectureTest {

  private static final JavaClasses STARTER = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
      .importPackages("io.triplerpc.spring.boot", "io.triplerpc.spring.boot3");

  @Test
  void noClassNamesNetty() {
    // Compiled against triple-core, run against the shaded jar: a Netty class named here would be the
    // application's (Boot 3.5's 4.1), not the one Triple runs on.
    noClasses().should().dependOnClassesThat().resideInAPackage("io.netty..")
        .because("the starter runs on triple-netty-shaded, whose Netty is relocated")
        .check(STARTER);
  }

  @Test
  void onlyHealthClassesNeedActuator() {
    noClasses().that().resideOutsideOfPackages("io.triplerpc.spring.boot3..")
        .should().dependOnClassesThat().resideInAPackage("org.springframework.boot.actuate..")
        .because("spring-boot-actuator is optional, and Boot 4 has no such package: the shared sources name neither line's health API")
        .check(STARTER);
  }
}
