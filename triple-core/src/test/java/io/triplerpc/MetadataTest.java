package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetadataTest {

  @Test
  void keysAreLowerCasedOnTheWayIn() {
    Metadata metadata = new Metadata().put("X-Trace", "a").put("x-TRACE", "b").put("Blob-Bin", new byte[] {1});
    assertEquals(Set.of("x-trace", "blob-bin"), metadata.keys());
    assertEquals(List.of("a", "b"), metadata.getAll("x-trace"));
  }

  @Test
  void lookupsFindKeysWhateverTheirCase() {
    // put lower-cases its key, so a lookup with the same spelling must find the value it stored.
    Metadata metadata = new Metadata().put("X-Trace", "a").put("Blob-Bin", new byte[] {1});
    assertEquals("a", metadata.get("X-Trace"));
    assertEquals(List.of("a"), metadata.getAll("X-Trace"));
    assertTrue(metadata.containsKey("X-Trace"));
    assertArrayEquals(new byte[] {1}, metadata.getBinary("Blob-Bin"));
    assertTrue(metadata.removeAll("X-Trace"));
  }

  @Test
  void repeatedKeysKeepEveryValueInOrderAndGetReturnsTheLast() {
    Metadata metadata = new Metadata().put("a", "1").put("b", "x").put("a", "2").put("a", "3");
    assertEquals(List.of("1", "2", "3"), metadata.getAll("a"));
    assertEquals("3", metadata.get("a"));
    assertEquals(4, metadata.size());
    assertEquals(List.of(), metadata.getAll("missing"));
    assertNull(metadata.get("missing"));
    assertFalse(metadata.containsKey("missing"));
  }

  @Test
  void manyEntriesGrowTheStorage() {
    Metadata metadata = new Metadata();
    for (int i = 0; i < 100; i++) {
      metadata.put("k" + i, "v" + i);
    }
    assertEquals(100, metadata.size());
    assertEquals("v0", metadata.get("k0"));
    assertEquals("v99", metadata.get("k99"));
  }

  @Test
  void binaryValuesLiveUnderBinKeysOnly() {
    byte[] first = {0, (byte) 0xff};
    byte[] second = {42};
    Metadata metadata = new Metadata().put("blob-bin", first).put("blob-bin", second);
    assertSame(second, metadata.getBinary("blob-bin"));
    assertEquals(List.of(first, second), metadata.getAllBinary("blob-bin"));
    assertNull(metadata.get("blob-bin"), "a binary value is not an ASCII one");
    assertEquals(List.of(), metadata.getAll("blob-bin"));
    assertTrue(Metadata.isBinaryKey("blob-bin"));
    assertFalse(Metadata.isBinaryKey("blob"));
  }

  @Test
  void asciiAndBinaryPutsCheckTheKeySuffix() {
    Metadata metadata = new Metadata();
    IllegalArgumentException ascii = assertThrows(IllegalArgumentException.class, () -> metadata.put("text-bin", "x"));
    assertTrue(ascii.getMessage().contains("text-bin"), ascii.getMessage());
    IllegalArgumentException binary =
        assertThrows(IllegalArgumentException.class, () -> metadata.put("blob", new byte[] {1}));
    assertTrue(binary.getMessage().contains("must end in -bin"), binary.getMessage());
    assertTrue(metadata.isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"has space", ":path", "a/b", "a:b", "a@b", "ünïcode", "tab\t", "a=b", "(x)"})
  void keysWithCharactersOutsideTheGrpcSetAreRejected(String key) {
    Metadata metadata = new Metadata();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> metadata.put(key, "x"));
    assertTrue(e.getMessage().contains("invalid character"), e.getMessage());
    assertTrue(metadata.isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "x-trace-id", "under_score", "dot.ted", "0-9", "grpc-custom"})
  void keysInTheGrpcSetAreAccepted(String key) {
    assertEquals("x", new Metadata().put(key, "x").get(key));
  }

  @Test
  void emptyAndNullKeysAreRejected() {
    Metadata metadata = new Metadata();
    assertThrows(IllegalArgumentException.class, () -> metadata.put("", "x"));
    assertThrows(NullPointerException.class, () -> metadata.put(null, "x"));
    assertThrows(NullPointerException.class, () -> metadata.put(null, new byte[0]));
  }

  @ParameterizedTest
  @ValueSource(strings = {"line\nbreak", "carriage\rreturn", "tab\there", "nul\0", "del\u007f", "ünïcode", "emoji 😈"})
  void valuesOutsidePrintableAsciiAreRejected(String value) {
    Metadata metadata = new Metadata();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> metadata.put("ok", value));
    assertTrue(e.getMessage().contains("use a -bin key"), e.getMessage());
    assertTrue(metadata.isEmpty());
  }

  @Test
  void everyPrintableAsciiValueIsAccepted() {
    StringBuilder printable = new StringBuilder();
    for (char c = ' '; c <= '~'; c++) {
      printable.append(c);
    }
    Metadata metadata = new Metadata().put("ok", printable.toString()).put("empty", "");
    assertEquals(printable.toString(), metadata.get("ok"));
    assertEquals("", metadata.get("empty"));
  }

  @Test
  void nullValuesAreRejected() {
    Metadata metadata = new Metadata();
    assertThrows(NullPointerException.class, () -> metadata.put("ok", (String) null));
    assertThrows(NullPointerException.class, () -> metadata.put("ok-bin", (byte[]) null));
    assertTrue(metadata.isEmpty());
  }

  @Test
  void removeAllTakesEveryValueOfOneKeyAndKeepsTheOthersInOrder() {
    Metadata metadata = new Metadata().put("a", "1").put("b", "2").put("a", "3").put("c", "4").put("a", "5");
    assertTrue(metadata.removeAll("a"));
    assertFalse(metadata.removeAll("a"));
    assertEquals(Set.of("b", "c"), metadata.keys());
    assertEquals(2, metadata.size());
    assertEquals(List.of("b=2", "c=4"), entries(metadata));
    metadata.put("a", "6");
    assertEquals(List.of("b=2", "c=4", "a=6"), entries(metadata));
  }

  @Test
  void mergeAppendsEveryEntryOfTheOtherAfterTheseAndLeavesTheOther() {
    Metadata other = new Metadata().put("b", "3").put("x-bin", new byte[] {1});
    Metadata metadata = new Metadata().put("a", "1").put("b", "2").merge(other);
    assertEquals(List.of("a=1", "b=2", "b=3", "x-bin=1 bytes"), entries(metadata));
    assertEquals(List.of("2", "3"), metadata.getAll("b"));
    assertEquals(2, other.size());
    assertSame(metadata, metadata.merge(new Metadata()));
  }

  @Test
  void keysAreListedOnceInFirstSeenOrderAndCannotBeChanged() {
    Set<String> keys = new Metadata().put("b", "1").put("a", "2").put("b", "3").keys();
    assertEquals(List.of("b", "a"), List.copyOf(keys));
    assertThrows(UnsupportedOperationException.class, () -> keys.add("c"));
  }

  @Test
  void toStringShowsAsciiValuesAndTheSizeOfBinaryOnes() {
    Metadata metadata = new Metadata().put("a", "1").put("blob-bin", new byte[3]);
    assertEquals("Metadata(a=1,blob-bin=3 bytes)", metadata.toString());
  }

  private static List<String> entries(Metadata metadata) {
    List<String> entries = new ArrayList<>();
    metadata.forEach((key, value) ->
        entries.add(key + "=" + (value instanceof byte[] ? ((byte[]) value).length + " bytes" : value)));
    return entries;
  }
}
