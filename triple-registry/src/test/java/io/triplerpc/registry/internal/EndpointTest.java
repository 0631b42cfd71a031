package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Endpoint}'s packed IPv4 host, its removal word and its slot's mark. */
class EndpointTest {

  @Test
  void dottedDecimalIpv4HostsArePackedAndComeBackUnchanged() {
    for (String host : List.of("0.0.0.0", "10.0.12.34", "127.0.0.1", "255.255.255.255", "192.168.100.9")) {
      assertTrue(Endpoint.ipv4(host) >= 0, host);
      Endpoint e = new Endpoint(host, 20880, 100);
      assertEquals(host, e.host());
      assertEquals(host + ":20880", e.address());
      assertTrue(e.matches(host, 20880));
      assertFalse(e.matches(host, 20881));
    }
    assertEquals(0xFFFFFFFFL, Endpoint.ipv4("255.255.255.255"));
    assertEquals((10L << 24) | (1 << 16) | (2 << 8) | 3, Endpoint.ipv4("10.1.2.3"));
  }

  @Test
  void otherHostsAreKeptAsGiven() {
    for (String host : List.of("010.0.0.1", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.", ".1.2.3", "1..2.3",
        "1.2.3.1000", "a.b.c.d", "::1", "fe80::1", "localhost", "provider-7.example.com", "1.2.3.04", "")) {
      assertEquals(-1, Endpoint.ipv4(host), host);
      Endpoint e = new Endpoint(host, 1, 100);
      assertSame(host, e.host());
      assertTrue(e.matches(host, 1));
    }
    assertEquals("[::1]:443", new Endpoint("::1", 443, 100).address());
  }

  @Test
  void aNameThatLooksLikeAnAddressIsNotThatAddress() {
    Endpoint packed = new Endpoint("1.2.3.4", 80, 100);
    assertFalse(packed.matches("01.2.3.4", 80));
    assertFalse(new Endpoint("01.2.3.4", 80, 100).matches("1.2.3.4", 80));
    EndpointIndex index = new EndpointIndex();
    index.add(packed);
    Endpoint other = new Endpoint("01.2.3.4", 80, 100);
    index.add(other);
    assertSame(packed, index.get("1.2.3.4", 80));
    assertSame(other, index.get("01.2.3.4", 80));
    assertNotSame(packed, other);
  }

  @Test
  void noSideStateUntilNeeded() {
    Endpoint e = new Endpoint("10.0.0.1", 80, 100);
    assertNull(e.openConnection());
    assertNull(e.outlier());
    assertNull(e.rtt());
    assertFalse(e.failedRecently());
    e.markHealthy();
    assertFalse(e.failedRecently());
    e.markFailed();
    assertTrue(e.failedRecently());
    e.markHealthy();
    assertFalse(e.failedRecently());
  }

  @Test
  void removalKeepsTheCallsInFlight() {
    Endpoint e = new Endpoint("10.0.0.1", 80, 100);
    e.callStarted();
    e.callStarted();
    e.remove();
    assertTrue(e.isRemoved());
    assertEquals(2, e.active());
    e.remove();
    e.callEnded();
    assertEquals(1, e.active());
    assertTrue(e.isRemoved());
    e.callEnded();
    assertEquals(0, e.active());
    assertTrue(e.isRemoved());
  }

  @Test
  void theMarkLeavesTheSlotAlone() {
    Endpoint e = new Endpoint("10.0.0.1", 80, 100);
    e.slot(12345);
    assertFalse(e.mark());
    assertTrue(e.mark());
    assertEquals(12345, e.slot());
    e.slot(7);
    assertEquals(7, e.slot());
    assertTrue(e.unmark());
    assertFalse(e.unmark());
    assertEquals(7, e.slot());
  }
}
