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
  void hessianFastjson2AndJacksonAreInstalled() {
    assertEquals(List.of("hessian2", "fastjson2", "jackson"),
        ObjectSerializations.installed().stream().map(ObjectSerialization::name).collect(Collectors.toList()));
    assertThrows(UnsupportedOperationException.class, () -> ObjectSerializations.installed().clear());
  }

  @Test
  void namesAndWireNamesSelectTheSameInstanceIgnoringCase() {
    ObjectSerialization hessian = ObjectSerializations.named(ObjectSerializations.HESSIAN2);
    assertSame(hessian, ObjectSerializations.named("hessian4"));
    assertSame(hessian, ObjectSerializations.named("Hessian2"));
    assertSame(hessian, ObjectSerializations.defaultSerialization());
    ObjectSerialization fastjson2 = ObjectSerializations.named(ObjectSerializations.FASTJSON2);
    assertSame(fastjson2, ObjectSerializations.named("FastJson2"));
    assertEquals("fastjson2", fastjson2.wireName());
    ObjectSerialization jackson = ObjectSerializations.named(ObjectSerializations.JACKSON);
    assertEquals("jackson", jackson.name());
    assertEquals("jackson", jackson.wireName());
  }

  @Test
  void anUnknownNameListsWhatIsInstalled() {
    // "json" is no name: Triple's Jackson serialization is not Dubbo's JSON (fastjson2), so it says which it is.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ObjectSerializations.named("json"));
    assertTrue(e.getMessage().contains("'json'") && e.getMessage().contains("[hessian2, fastjson2, jackson]"),
        e.getMessage());
  }
}
