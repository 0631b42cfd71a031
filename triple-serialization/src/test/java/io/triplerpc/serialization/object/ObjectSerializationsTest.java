package io.triplerpc.serialization.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ObjectSerializationsTest {

  @Test
  void hessianAndJsonAreInstalled() {
    assertEquals(List.of("hessian2", "json"),
        ObjectSerializations.installed().stream().map(ObjectSerialization::name).collect(Collectors.toList()));
    assertThrows(UnsupportedOperationException.class, () -> ObjectSerializations.installed().clear());
  }

  @Test
  void namesAndWireNamesSelectTheSameInstanceIgnoringCase() {
    ObjectSerialization hessian = ObjectSerializations.named(ObjectSerializations.HESSIAN2);
    assertSame(hessian, ObjectSerializations.named("hessian4"));
    assertSame(hessian, ObjectSerializations.named("Hessian2"));
    assertSame(hessian, ObjectSerializations.defaultSerialization());
    ObjectSerialization json = ObjectSerializations.named(ObjectSerializations.JSON);
    assertSame(json, ObjectSerializations.named("jackson"));
    assertEquals("json", json.name());
  }

  @Test
  void anUnknownNameListsWhatIsInstalled() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ObjectSerializations.named("fastjson2"));
    assertTrue(e.getMessage().contains("'fastjson2'") && e.getMessage().contains("[hessian2, json]"), e.getMessage());
  }
}
