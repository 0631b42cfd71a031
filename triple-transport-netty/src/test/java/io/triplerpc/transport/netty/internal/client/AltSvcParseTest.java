package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a client that follows {@code Alt-Svc} reads of the header (RFC 7838), its {@code ma} on a given clock. */
class AltSvcParseTest {

  private static final long NOW = 1_000_000_000L;

  @Test
  void anH3AlternativeOnTheSameHostIsFreshForItsMaxAge() {
    AltSvc altSvc = AltSvc.parse("h3=\":8443\"; ma=60", NOW);
    assertEquals(8443, altSvc.port());
    assertTrue(altSvc.isFresh(NOW + TimeUnit.SECONDS.toNanos(59)));
    assertFalse(altSvc.isFresh(NOW + TimeUnit.SECONDS.toNanos(60)));
  }

  @Test
  void withoutMaItHoldsTwentyFourHours() {
    AltSvc altSvc = AltSvc.parse("h3=\":443\"", NOW);
    assertTrue(altSvc.isFresh(NOW + TimeUnit.HOURS.toNanos(24) - 1));
    assertFalse(altSvc.isFresh(NOW + TimeUnit.HOURS.toNanos(24)));
  }

  @Test
  void maZeroIsAlreadyStale() {
    assertFalse(AltSvc.parse("h3=\":443\"; ma=0", NOW).isFresh(NOW));
  }

  @Test
  void theFirstH3AlternativeIsTakenAmongOthers() {
    assertEquals(9443, AltSvc.parse("h2=\":443\", h3-29=\":8443\", h3=\":9443\"; ma=10; persist=1", NOW).port());
  }

  @Test
  void clearWithdrawsEveryAlternative() {
    assertSame(AltSvc.CLEAR, AltSvc.parse("clear", NOW));
    assertFalse(AltSvc.CLEAR.isFresh(NOW));
  }

  @Test
  void anotherHostMalformedValuesAndOtherProtocolsAreIgnored() {
    assertNull(AltSvc.parse("h3=\"other.example:443\"", NOW));
    assertNull(AltSvc.parse("h3=\":http\"", NOW));
    assertNull(AltSvc.parse("h3=\":70000\"", NOW));
    assertNull(AltSvc.parse("h3=\":443\"; ma=soon", NOW));
    assertNull(AltSvc.parse("h2=\":443\"", NOW));
    assertNull(AltSvc.parse("h3=:443", NOW));
    assertNull(AltSvc.parse("", NOW));
    assertNull(AltSvc.parse(null, NOW));
  }
}
