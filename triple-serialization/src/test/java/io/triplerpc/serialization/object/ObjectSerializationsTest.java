package io.triplerpc.serialization.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What {@code triple-serialization} installs by itself: hessian2 and jackson, and no fastjson2. */
class ObjectSerializationsTest {

  @Test
  void hessianAndJacksonAreInstalledAndFastjson2IsNot() {
    assertEquals(List.of("hessian2", "jackson"),
        ObjectSerializations.installed().stream().map(ObjectSerialization::name).collect(Collectors.toList()));
    assertThrows(UnsupportedOperationException.class, () -> ObjectSerializations.installed().clear());
  }

  @Test
  void namesAndWireNamesSelectTheSameInstanceIgnoringCase() {
    ObjectSerialization hessian = ObjectSerializations.named(ObjectSerializations.HESSIAN2);
    assertSame(hessian, ObjectSerializations.named("hessian4"));
    assertSame(hessian, ObjectSerializations.named("Hessian2"));
    assertSame(hessian, ObjectSerializations.defaultSerialization());
    ObjectSerialization jackson = ObjectSerializations.named(ObjectSerializations.JACKSON);
    assertEquals("jackson", jackson.name());
    assertEquals("jackson", jackson.wireName());
  }

  @Test
  void fastjson2WithoutItsArtifactNamesTheArtifactToAdd() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> ObjectSerializations.named("FastJson2"));
    assertTrue(e.getMessage().contains("io.triplerpc:triple-serialization-fastjson2")
        && e.getMessage().contains("[hessian2, jackson]"), e.getMessage());
    assertEquals(ObjectSerializations.FASTJSON2_ARTIFACT, ObjectSerializations.missingArtifact("fastjson2"));
    assertNull(ObjectSerializations.missingArtifact("hessian4"), "installed");
    assertNull(ObjectSerializations.missingArtifact("kryo"), "no artifact of Triple's has it");
  }

  @Test
  void anUnknownNameListsWhatIsInstalled() {
    // "json" is no name: Triple's Jackson serialization is not Dubbo's JSON (fastjson2), so it says which it is.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ObjectSerializations.named("json"));
    assertTrue(e.getMessage().contains("'json'") && e.getMessage().contains("[hessian2, jackson]"), e.getMessage());
  }
}
