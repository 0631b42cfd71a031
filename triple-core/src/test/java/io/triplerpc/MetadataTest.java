package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetadataTest {

  @Test
  void keysAreLowerCasedAndValuesKeptInOrder() {
    Metadata metadata = new Metadata().put("X-Trace", "a").put("x-trace", "b");
    assertEquals(List.of("a", "b"), metadata.getAll("x-trace"));
    assertEquals("b", metadata.get("x-trace"));
    assertEquals(2, metadata.size());
  }

  @Test
  void binaryValuesNeedBinKeysAndAsciiValuesMustNotUseThem() {
    byte[] bytes = {0, (byte) 0xff};
    Metadata metadata = new Metadata().put("blob-bin", bytes);
    assertArrayEquals(bytes, metadata.getBinary("blob-bin"));
    assertNull(metadata.get("blob-bin"));
    assertThrows(IllegalArgumentException.class, () -> metadata.put("blob", bytes));
    assertThrows(IllegalArgumentException.class, () -> metadata.put("text-bin", "x"));
  }

  @Test
  void invalidKeysAndValuesAreRejected() {
    Metadata metadata = new Metadata();
    assertThrows(IllegalArgumentException.class, () -> metadata.put("", "x"));
    assertThrows(IllegalArgumentException.class, () -> metadata.put("has space", "x"));
    assertThrows(IllegalArgumentException.class, () -> metadata.put(":path", "x"));
    assertThrows(IllegalArgumentException.class, () -> metadata.put("ok", "line\nbreak"));
    assertThrows(IllegalArgumentException.class, () -> metadata.put("ok", "ünïcode"));
    assertThrows(NullPointerException.class, () -> metadata.put("ok", (String) null));
    assertTrue(metadata.isEmpty());
  }

  @Test
  void removeAllAndMergeKeepTheOthers() {
    Metadata metadata = new Metadata().put("a", "1").put("b", "2").put("a", "3");
    assertTrue(metadata.removeAll("a"));
    assertFalse(metadata.removeAll("a"));
    assertEquals(Set.of("b"), metadata.keys());
    metadata.merge(new Metadata().put("c", "4").put("x-bin", new byte[] {1}));
    assertEquals(Set.of("b", "c", "x-bin"), metadata.keys());
    assertTrue(metadata.containsKey("x-bin"));
  }
}
