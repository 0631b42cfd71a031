package io.triplerpc.serialization.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.fastjson2.Fastjson2ObjectSerialization;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** With this artifact on the class path, fastjson2 is found, in its place between hessian2 and jackson. */
class Fastjson2InstalledTest {

  @Test
  void fastjson2IsFoundBetweenHessianAndJackson() {
    assertEquals(List.of("hessian2", "fastjson2", "jackson"),
        ObjectSerializations.installed().stream().map(ObjectSerialization::name).collect(Collectors.toList()));
  }

  @Test
  void itsNameAndWireNameSelectOneInstanceIgnoringCase() {
    ObjectSerialization fastjson2 = ObjectSerializations.named(ObjectSerializations.FASTJSON2);
    assertInstanceOf(Fastjson2ObjectSerialization.class, fastjson2);
    assertSame(fastjson2, ObjectSerializations.named("FastJson2"));
    assertEquals("fastjson2", fastjson2.wireName());
    assertNull(ObjectSerializations.missingArtifact("fastjson2"), "installed");
  }

  @Test
  void anUnknownNameListsFastjson2AmongTheInstalled() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ObjectSerializations.named("json"));
    assertTrue(e.getMessage().contains("[hessian2, fastjson2, jackson]"), e.getMessage());
  }
}
