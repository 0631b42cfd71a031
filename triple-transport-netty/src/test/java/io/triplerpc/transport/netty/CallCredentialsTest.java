package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.CallCredentials;
import io.triplerpc.CallCredentials.AccessToken;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Call credentials on the client, checked by a bearer-token authenticator on a real TLS server: good,
 * missing, wrong and expired tokens, tokens refreshed before they expire, credentials that arrive later
 * or not at all, and credentials that refuse to travel in cleartext.
 */
class CallCredentialsTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("hello").build();

  /** Time for tokens, on both sides; moved by the test. */
  private final TestClock clock = new TestClock();
  /** Valid tokens and when they expire, as an identity provider would know them. */
  private final Map<String, Instant> issued = new ConcurrentHashMap<>();

  private final CallerRecordingEchoService service = new CallerRecordingEchoService();
  @RegisterExtension final EchoFixture fixture = new EchoFixture(service);

  /** Accepts a token the provider issued, until it expires. */
  private Principal verify(String token) {
    Instant expiry = issued.get(token);
    return expiry != null && clock.instant().isBefore(expiry) ? () -> "user-of-" + token : null;
  }

  private void startServer(boolean tls) {
    fixture.startServer(builder -> {
      builder.accessPolicy(AccessPolicy.builder(Authenticator.bearerToken(this::verify)).build());
      return tls ? builder.tls(TlsConfig.builder()
          .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey()).build()) : builder;
    });
  }

  private TripleClient client(boolean tls, CallCredentials credentials) {
    return fixture.newClient(builder -> {
      builder.defaultCallOptions(CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      if (tls) {
        builder.tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build());
      }
      return credentials == null ? builder : builder.callCredentials(credentials);
    });
  }

  private String issue(String token, Duration lifetime) {
    issued.put(token, clock.instant().plus(lifetime));
    return token;
  }

  @Test
  void aGoodTokenReachesTheServiceWithItsPrincipal() {
    startServer(true);
    String token = issue("good", Duration.ofHours(1));
    EchoService echo = client(true, CallCredentials.bearerToken(token)).proxy(EchoService.class);

    assertEquals("hello", echo.echo(HELLO).getMessage());
    assertEquals("user-of-good", service.principal.get().getName());
    // The asynchronous form goes the same way.
    assertEquals("hello", echo.echoAsync(HELLO).join().getMessage());
  }

  @Test
  void missingWrongAndExpiredTokensAreUnauthenticatedAndNeverReachTheService() {
    startServer(true);
    issue("expired", Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(11));

    StatusException missing = assertThrows(StatusException.class,
        () -> client(true, null).proxy(EchoService.class).echo(HELLO));
    assertEquals(Status.Code.UNAUTHENTICATED, missing.status().code());
    assertTrue(missing.status().description().contains("Missing credentials"), missing.status().toString());

    for (String token : List.of("wrong", "expired")) {
      StatusException e = assertThrows(StatusException.class,
          () -> client(true, CallCredentials.bearerToken(token)).proxy(EchoService.class).echo(HELLO));
      assertEquals(Status.Code.UNAUTHENTICATED, e.status().code());
      assertEquals("Invalid or expired bearer token", e.status().description());
    }
    assertEquals(0, service.callsServed.get());
  }

  @Test
  void aTokenIsReusedUntilItNearsExpiryThenRefreshed() {
    startServer(true);
    AtomicInteger fetches = new AtomicInteger();
    CallCredentials tokens = CallCredentials.bearerTokens(
        () -> CompletableFuture.completedFuture(new AccessToken(
            issue("token-" + fetches.incrementAndGet(), Duration.ofMinutes(5)), clock.instant().plus(Duration.ofMinutes(5)))),
        clock, Duration.ofSeconds(30));
    EchoService echo = client(true, tokens).proxy(EchoService.class);

    for (int i = 0; i < 3; i++) {
      echo.echo(HELLO);
    }
    assertEquals(1, fetches.get());
    assertEquals("user-of-token-1", service.principal.get().getName());

    // Expired: the server would refuse token-1, so the next call waits for a new one.
    clock.advance(Duration.ofMinutes(6));
    echo.echo(HELLO);
    assertEquals(2, fetches.get());
    assertEquals("user-of-token-2", service.principal.get().getName());

    // Within 30 s of its expiry: still good for this call, which starts the refresh.
    clock.advance(Duration.ofMinutes(4).plusSeconds(40));
    echo.echo(HELLO);
    assertEquals(3, fetches.get());
    echo.echo(HELLO);
    assertEquals("user-of-token-3", service.principal.get().getName());
  }

  @Test
  void aCallWaitsForCredentialsThatArriveLater() throws Exception {
    startServer(true);
    CompletableFuture<AccessToken> fetch = new CompletableFuture<>();
    EchoService echo = client(true, CallCredentials.bearerTokens(() -> fetch, clock, Duration.ZERO))
        .proxy(EchoService.class);

    CompletableFuture<EchoResponse> first = echo.echoAsync(HELLO);
    CompletableFuture<EchoResponse> second = echo.echoAsync(HELLO);
    assertFalse(first.isDone());
    assertEquals(0, service.callsServed.get());

    fetch.completeAsync(() -> new AccessToken(issue("late", Duration.ofHours(1)), Instant.MAX));
    assertEquals("hello", first.get(10, TimeUnit.SECONDS).getMessage());
    assertEquals("hello", second.get(10, TimeUnit.SECONDS).getMessage());
    assertEquals("user-of-late", service.principal.get().getName());
  }

  @Test
  void credentialsThatCannotBeHadFailTheCallAndTheNextCallTriesAgain() {
    startServer(true);
    AtomicInteger fetches = new AtomicInteger();
    CallCredentials tokens = CallCredentials.bearerTokens(() -> fetches.incrementAndGet() == 1
        ? CompletableFuture.failedFuture(new IllegalStateException("identity provider down"))
        : CompletableFuture.completedFuture(new AccessToken(issue("second", Duration.ofHours(1)), Instant.MAX)),
        clock, Duration.ZERO);
    EchoService echo = client(true, tokens).proxy(EchoService.class);

    StatusException e = assertThrows(StatusException.class, () -> echo.echo(HELLO));
    assertEquals(Status.Code.UNAUTHENTICATED, e.status().code());
    assertTrue(e.status().description().contains("identity provider down"), e.status().toString());
    assertEquals(0, service.callsServed.get());

    assertEquals("hello", echo.echo(HELLO).getMessage());
  }

  @Test
  void aCallWaitingForCredentialsEndsAtItsDeadline() {
    startServer(true);
    CompletableFuture<AccessToken> never = new CompletableFuture<>();
    EchoService echo = client(true, CallCredentials.bearerTokens(() -> never, clock, Duration.ZERO))
        .proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(200)));

    StatusException e = assertThrows(StatusException.class, () -> echo.echo(HELLO));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.status().code());
    assertEquals(0, service.callsServed.get());
  }

  @Test
  void credentialsAreNotSentOverCleartextUnlessAllowed() {
    startServer(false);
    String token = issue("plain", Duration.ofHours(1));

    StatusException e = assertThrows(StatusException.class,
        () -> client(false, CallCredentials.bearerToken(token)).proxy(EchoService.class).echo(HELLO));
    assertEquals(Status.Code.UNAUTHENTICATED, e.status().code());
    assertTrue(e.status().description().contains("not sent over a cleartext connection"), e.status().toString());
    assertEquals(0, service.callsServed.get());

    EchoService allowed = client(false, CallCredentials.bearerToken(token).allowingCleartext()).proxy(EchoService.class);
    assertEquals("hello", allowed.echo(HELLO).getMessage());
    assertEquals("user-of-plain", service.principal.get().getName());
  }

  @Test
  void aCallsOwnCredentialsReplaceTheClients() {
    startServer(true);
    TripleClient client = client(true, CallCredentials.bearerToken(issue("client", Duration.ofHours(1))));
    EchoService perCall = client.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))
        .withCallCredentials(CallCredentials.header("authorization", "Bearer " + issue("call", Duration.ofHours(1)))));

    perCall.echo(HELLO);
    assertEquals("user-of-call", service.principal.get().getName());
    client.proxy(EchoService.class).echo(HELLO);
    assertEquals("user-of-client", service.principal.get().getName());
  }

  @Test
  void credentialsNeverPrintTheirSecret() {
    assertFalse(CallCredentials.bearerToken("s3cret").toString().contains("s3cret"));
    assertFalse(new AccessToken("s3cret", Instant.MAX).toString().contains("s3cret"));
    assertThrows(IllegalArgumentException.class, () -> CallCredentials.bearerToken("two words"));
  }

  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
