package io.triplerpc.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.triplerpc.TripleAdmin;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.architecture.fixture.CleanApi;
import io.triplerpc.architecture.fixture.LeakyApi;
import io.triplerpc.architecture.fixture.internal.Implementation;
import io.triplerpc.internal.client.TripleClientBuilder;
import io.triplerpc.internal.server.TripleAdminBuilder;
import io.triplerpc.internal.server.TripleServerBuilder;
import io.triplerpc.testing.ArchitectureRules;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of {@code triple-core}, as docs/architecture.md states them: the API never reaches
 * into the implementation, core never reaches the transport or the registry, and of Netty core uses
 * only buffers and {@code AsciiString}.
 */
class CoreArchitectureTest {

  private static final JavaClasses CORE = ArchitectureRules.moduleOf(TripleClient.class);

  @Test
  void theApiReachesTheImplementationOnlyThroughItsBuilders() {
    ArchitectureRules.apiDependsOnInternalOnlyThroughEntryPoints("io.triplerpc",
        Map.of(TripleClient.class, TripleClientBuilder.class, TripleServer.class, TripleServerBuilder.class,
            TripleAdmin.class, TripleAdminBuilder.class),
        "io.triplerpc", "io.triplerpc.spi").check(CORE);
  }

  @Test
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc").check(CORE);
  }

  @Test
  void coreNeverDependsOnTheTransportOrTheRegistry() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.triplerpc.transport..", "io.triplerpc.registry..")
        .because("core finds its transport through ServiceLoader and the registry plugs in through io.triplerpc.spi")
        .check(CORE);
  }

  @Test
  void coreUsesOnlyNettysBuffersAndAsciiString() {
    // Beside the JDK, Triple and protobuf: REST's google.api.http rules and google.rpc error details
    // (Google's common protos, optional), and Jackson, which triple-serialization brings for JSON.
    DescribedPredicate<JavaClass> allowed = JavaClass.Predicates.resideInAnyPackage(
            "java..", "javax..", "io.triplerpc..", "io.netty.buffer..", "org.slf4j..", "com.google.protobuf..",
            "com.google.api..", "com.google.rpc..", "com.fasterxml.jackson..")
        .or(JavaClass.Predicates.equivalentTo(io.netty.util.AsciiString.class))
        .or(describe("primitive or array", type -> type.isPrimitive() || type.isArray()));
    classes().should().onlyDependOnClassesThat(allowed)
        .because("a request is serialized straight into the ByteBuf the transport writes; the rest of Netty"
            + " belongs to the transport")
        .check(CORE);
  }

  @Test
  void theApiRuleFailsOnAnApiClassThatImportsInternal() {
    ArchRule rule = ArchitectureRules.apiNeverDependsOnInternal("io.triplerpc.architecture.fixture", "io.triplerpc.architecture.fixture");
    JavaClasses leaky = new ClassFileImporter().importClasses(LeakyApi.class, CleanApi.class, Implementation.class);
    AssertionError error = assertThrows(AssertionError.class, () -> rule.check(leaky));
    assertTrue(error.getMessage().contains(LeakyApi.class.getName()), error.getMessage());
    assertFalse(error.getMessage().contains(CleanApi.class.getName()), error.getMessage());
    assertDoesNotThrow(() -> rule.check(new ClassFileImporter().importClasses(CleanApi.class, Implementation.class)));
  }

  @Test
  void theEntryPointRuleAllowsOnlyTheDependencyItNames() {
    JavaClasses leaky = new ClassFileImporter().importClasses(LeakyApi.class, CleanApi.class, Implementation.class);
    ArchRule none = ArchitectureRules.apiDependsOnInternalOnlyThroughEntryPoints(
        "io.triplerpc.architecture.fixture", Map.of(), "io.triplerpc.architecture.fixture");
    AssertionError error = assertThrows(AssertionError.class, () -> none.check(leaky));
    assertTrue(error.getMessage().contains(LeakyApi.class.getName()), error.getMessage());
    ArchRule named = ArchitectureRules.apiDependsOnInternalOnlyThroughEntryPoints(
        "io.triplerpc.architecture.fixture", Map.of(LeakyApi.class, Implementation.class),
        "io.triplerpc.architecture.fixture");
    assertDoesNotThrow(() -> named.check(leaky));
    ArchRule other = ArchitectureRules.apiDependsOnInternalOnlyThroughEntryPoints(
        "io.triplerpc.architecture.fixture", Map.of(CleanApi.class, Implementation.class),
        "io.triplerpc.architecture.fixture");
    assertThrows(AssertionError.class, () -> other.check(leaky), "an entry point allows its own class only");
  }

  @Test
  void theSignatureRuleFailsOnAPublicMethodThatHandsOutAnInternalType() {
    ArchRule rule = ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.architecture.fixture");
    AssertionError error = assertThrows(AssertionError.class,
        () -> rule.check(new ClassFileImporter().importClasses(LeakyApi.class, CleanApi.class, Implementation.class)));
    assertTrue(error.getMessage().contains("implementation() returns " + Implementation.class.getName()),
        error.getMessage());
    assertFalse(error.getMessage().contains(CleanApi.class.getName()), error.getMessage());
  }
}
