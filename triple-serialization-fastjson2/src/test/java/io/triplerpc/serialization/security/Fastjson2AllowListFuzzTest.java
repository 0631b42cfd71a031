package io.triplerpc.serialization.security;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Fuzz target of fastjson2 (JSONB, as Dubbo frames it) behind the deserialization allow list (Jazzer):
 * streams built as an attacker builds them around a class name, wherever JSONB lets a sender name one,
 * bent, or raw; see {@link AllowListFuzzing} for what must hold.
 */
class Fastjson2AllowListFuzzTest {

  private static final List<AllowListFuzzing.Builder> JSONB = List.of(
      name -> HandBuiltJsonb.object(name, "touch /tmp/pwned"),
      HandBuiltJsonb::envelopeAttaching,
      HandBuiltJsonb::listHolding,
      HandBuiltJsonb::listOf,
      HandBuiltJsonb::arrayOf,
      HandBuiltJsonb::mapHolding,
      HandBuiltJsonb::classNaming,
      name -> HandBuiltJsonb.objectWithFields(name, Map.of("label", "x", "command", "y")));

  @FuzzTest
  void jsonb(FuzzedDataProvider data) throws IOException {
    AllowListFuzzing.readOne(data, ObjectSerializations.named("fastjson2"), JSONB);
  }
}
