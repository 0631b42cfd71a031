package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Metadata#received}: a transport's headers, read as they are or converted once when first needed. */
class ReceivedMetadataTest {

  @Test
  void anAsciiLookupReadsTheSourceWithoutConvertingIt() {
    CountingSource source = new CountingSource("version", "1.0", "group", "a", "version", "2.0");
    Metadata metadata = Metadata.received(source);
    assertEquals("2.0", metadata.get("Version"), "the last value, whatever the case of the key");
    assertEquals("a", metadata.get("group"));
    assertNull(metadata.get("absent"));
    assertEquals(0, source.conversions.get());
  }

  @Test
  void everythingElseConvertsOnceAndSeesTheSameEntries() {
    CountingSource source = new CountingSource("a", "1", "b-bin", "AQI", "a", "2");
    Metadata metadata = Metadata.received(source);
    assertEquals(3, metadata.size());
    assertArrayEquals(new byte[] {1, 2}, metadata.getBinary("b-bin"));
    assertEquals(List.of("1", "2"), metadata.getAll("a"));
    metadata.put("c", "3");
    assertEquals("3", metadata.get("c"));
    assertEquals(1, source.conversions.get());
    assertEquals("Metadata(a=1,b-bin=2 bytes,a=2,c=3)", metadata.toString());
  }

  @Test
  void aLastValueThatPutWouldRefuseGivesTheLastValidOne() {
    CountingSource source = new CountingSource("a", "fine", "a", "tab\there");
    Metadata metadata = Metadata.received(source);
    assertEquals("fine", metadata.get("a"));
    assertEquals(1, source.conversions.get());
  }

  @Test
  void mergingReadsBothSides() {
    Metadata into = Metadata.received(new CountingSource("a", "1"));
    into.merge(Metadata.received(new CountingSource("b", "2")));
    assertEquals("Metadata(a=1,b=2)", into.toString());
    Metadata itself = Metadata.received(new CountingSource("x", "1"));
    assertEquals(2, itself.merge(itself).size());
  }

  @Test
  void twoThreadsReadingFirstConvertOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 200; round++) {
        CountingSource source = new CountingSource("a", "1", "b", "2", "c", "3");
        Metadata metadata = Metadata.received(source);
        CyclicBarrier start = new CyclicBarrier(2);
        List<CompletableFuture<Integer>> sizes = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          sizes.add(CompletableFuture.supplyAsync(() -> {
            try {
              start.await();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
            return metadata.size();
          }, threads));
        }
        for (CompletableFuture<Integer> size : sizes) {
          assertEquals(3, size.get());
        }
        assertEquals(1, source.conversions.get(), "round " + round);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** Name and value pairs, as a transport holds them; binary values base64, as on the wire. */
  private static final class CountingSource implements Metadata.ReceivedHeaders {
    final AtomicInteger conversions = new AtomicInteger();
    private final String[] pairs;

    CountingSource(String... pairs) {
      this.pairs = pairs;
    }

    @Override
    public String lastValue(String key) {
      String last = null;
      for (int i = 0; i < pairs.length; i += 2) {
        if (pairs[i].equalsIgnoreCase(key)) {
          last = pairs[i + 1];
        }
      }
      return last;
    }

    @Override
    public void copyTo(Metadata target) {
      conversions.incrementAndGet();
      for (int i = 0; i < pairs.length; i += 2) {
        if (Metadata.isBinaryKey(pairs[i])) {
          target.put(pairs[i], java.util.Base64.getDecoder().decode(pairs[i + 1]));
        } else {
          try {
            target.put(pairs[i], pairs[i + 1]);
          } catch (IllegalArgumentException dropped) {
            // as a transport drops a malformed header
          }
        }
      }
    }
  }
}
