package io.triplerpc.serialization.security;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Fuzz target of hessian2 behind the deserialization allow list (Jazzer): streams built as an attacker
 * builds them around a class name, bent, or raw; see {@link AllowListFuzzing} for what must hold.
 */
class AllowListFuzzTest {

  private static final List<AllowListFuzzing.Builder> HESSIAN = List.of(
      name -> HandBuiltHessian.object(name, "touch /tmp/pwned"),
      HandBuiltHessian::envelopeAttaching,
      HandBuiltHessian::listHolding,
      HandBuiltHessian::arrayOf,
      HandBuiltHessian::mapHolding,
      name -> HandBuiltHessian.objectWithFields(name, Map.of("label", "x", "command", "y")));

  @FuzzTest
  void hessian2(FuzzedDataProvider data) throws IOException {
    AllowListFuzzing.readOne(data, ObjectSerializations.named("hessian2"), HESSIAN);
  }
}
