package io.triplerpc.serialization.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** {@code triple-serialization} is the bottom of the stack: it depends on no other Triple module, nor on Netty. */
class SerializationArchitectureTest {

  private static final JavaClasses SERIALIZATION = ArchitectureRules.moduleOf(MessageCodec.class);

  @Test
  void serializationDependsOnNoOtherTripleModule() {
    noClasses().should().dependOnClassesThat(
            com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage("io.triplerpc..")
                .and(com.tngtech.archunit.core.domain.JavaClass.Predicates
                    .resideOutsideOfPackage("io.triplerpc.serialization..")))
        .because("core, the transport and the registry build on the codecs, never the other way")
        .check(SERIALIZATION);
  }

  @Test
  void serializationNeedsNoNetty() {
    noClasses().should().dependOnClassesThat().resideInAPackage("io.netty..")
        .because("codecs write to streams, so that serialization plugs into any transport")
        .check(SERIALIZATION);
  }

  @Test
  void noPublicSignatureNamesAnInternalType() {
    ArchitectureRules.publicSignaturesNameNoInternalType("io.triplerpc.serialization").check(SERIALIZATION);
  }
}
