package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.CallCredentials;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.internal.health.HealthService;
import io.triplerpc.internal.health.proto.HealthCheckRequest;
import io.triplerpc.internal.health.proto.HealthCheckResponse;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server's {@link AccessPolicy}: authentication before the service and its interceptors, rules per
 * service and method, authenticators that answer later, and the HTTP statuses curl gets.
 */
class AccessPolicyTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("hello").build();
  private static final Set<String> TOKENS = Set.of("alice", "admin");

  private final CallerRecordingEchoService service = new CallerRecordingEchoService();
  @RegisterExtension final EchoFixture fixture = new EchoFixture(service);

  private static Principal tokenOwner(String token) {
    return TOKENS.contains(token) ? () -> token : null;
  }

  private void startServer(AccessPolicy policy, TlsConfig tls) {
    fixture.startServer(builder -> tls == null ? builder.accessPolicy(policy) : builder.accessPolicy(policy).tls(tls));
  }

  private TripleClient client(String token) {
    return fixture.newClient(builder -> {
      builder.defaultCallOptions(CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      return token == null ? builder : builder.callCredentials(CallCredentials.bearerToken(token).allowingCleartext());
    });
  }

  private static AccessPolicy.Builder bearerPolicy() {
    return AccessPolicy.builder(Authenticator.bearerToken(AccessPolicyTest::tokenOwner));
  }

  @Test
  void rulesPerServiceAndMethodDecideAfterAuthentication() throws Exception {
    startServer(bearerPolicy()
        .permitUnauthenticated("grpc.health.v1.Health")
        .authorize("triple.test.EchoService/bidi", (who, call) -> who.getName().equals("admin"))
        .build(), null);

    EchoService alice = client("alice").proxy(EchoService.class);
    assertEquals("hello", alice.echo(HELLO).getMessage());
    assertEquals("alice", service.principal.get().getName());

    RecordingObserver<EchoResponse> denied = new RecordingObserver<>();
    alice.bidi(denied).onNext(HELLO);
    denied.awaitCompletion();
    assertEquals(Status.Code.PERMISSION_DENIED, ((StatusException) denied.error()).status().code());
    assertEquals(1, service.callsServed.get());

    RecordingObserver<EchoResponse> permitted = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = client("admin").proxy(EchoService.class).bidi(permitted);
    requests.onNext(HELLO);
    requests.onCompleted();
    permitted.awaitCompletion();
    assertNull(permitted.error());
    assertEquals("admin", service.principal.get().getName());

    // The health service is open: a probe needs no token.
    HealthCheckResponse health = client(null).proxy(HealthService.class).check(HealthCheckRequest.getDefaultInstance());
    assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.getStatus());
    // Reflection is not: it falls under the default rule.
    StatusException noToken = assertThrows(StatusException.class, () -> client(null).proxy(EchoService.class).echo(HELLO));
    assertEquals(Status.Code.UNAUTHENTICATED, noToken.status().code());
  }

  @Test
  void anAuthenticatorThatAnswersLaterHoldsTheStreamsMessagesInOrder() throws Exception {
    CompletableFuture<Principal> verdict = new CompletableFuture<>();
    AtomicInteger asked = new AtomicInteger();
    startServer(AccessPolicy.builder(call -> {
      asked.incrementAndGet();
      return verdict;
    }).build(), null);

    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = client(null).proxy(EchoService.class).bidi(responses);
    for (int i = 0; i < 5; i++) {
      requests.onNext(EchoRequest.newBuilder().setMessage("m" + i).build());
    }
    requests.onCompleted();
    assertEquals(0, service.callsServed.get());

    verdict.completeAsync(() -> () -> "later");
    responses.awaitCompletion();
    assertNull(responses.error());
    assertEquals(List.of("m0", "m1", "m2", "m3", "m4"),
        responses.values().stream().map(EchoResponse::getMessage).toList());
    assertEquals("later", service.principal.get().getName());
    assertEquals(1, asked.get());
  }

  @Test
  void aCallCancelledWhileItsAuthenticatorNeverAnswersEndsAndReleasesWhatItSent() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    // The first verdict never comes; later ones come at once.
    startServer(AccessPolicy.builder(call -> asked.incrementAndGet() == 1
        ? new CompletableFuture<Principal>()
        : CompletableFuture.completedFuture(() -> "second")).build(), null);

    EchoService echo = client(null).proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(300)));
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = client(null).proxy(EchoService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofMillis(300))).bidi(responses);
    // Held by the server while it waits for the verdict; the leak check after the class sees them released.
    requests.onNext(EchoRequest.newBuilder().setMessage("held").setResponseSize(1000).build());
    responses.awaitCompletion();
    assertEquals(Status.Code.DEADLINE_EXCEEDED, ((StatusException) responses.error()).status().code());

    assertEquals("hello", echo.echo(HELLO).getMessage());
    assertEquals("second", service.principal.get().getName());
    assertEquals(1, service.callsServed.get());
  }

  @Test
  void failingAuthenticatorsAndRulesAreInternalErrorsThatTellNothing() {
    startServer(AccessPolicy.builder(call -> {
      throw new IllegalStateException("database password is hunter2");
    }).build(), null);
    StatusException e = assertThrows(StatusException.class, () -> client(null).proxy(EchoService.class).echo(HELLO));
    assertEquals(Status.Code.INTERNAL, e.status().code());
    assertEquals("Authentication failed on the server", e.status().description());
    assertEquals(0, service.callsServed.get());
  }

  @Test
  void mutualTlsOrABearerTokenAuthenticate() {
    TlsConfig serverTls = TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
        .trustCertificates(TestCertificates.caCertificate())
        .clientAuth(TlsConfig.ClientAuth.OPTIONAL)
        .build();
    startServer(AccessPolicy.builder(Authenticator.clientCertificate()
        .or(Authenticator.bearerToken(AccessPolicyTest::tokenOwner))).build(), serverTls);

    TripleClient withCertificate = fixture.newClient(builder -> builder
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate())
            .keyCertChain(TestCertificates.clientCertificate(), TestCertificates.clientKey()).build()));
    withCertificate.proxy(EchoService.class).echo(HELLO);
    assertEquals("CN=triple-test-client", service.principal.get().getName());

    TripleClient withToken = fixture.newClient(builder -> builder
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build())
        .callCredentials(CallCredentials.bearerToken("alice")));
    withToken.proxy(EchoService.class).echo(HELLO);
    assertEquals("alice", service.principal.get().getName());

    TripleClient withNeither = fixture.newClient(builder -> builder
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build()));
    StatusException e = assertThrows(StatusException.class, () -> withNeither.proxy(EchoService.class).echo(HELLO));
    assertEquals(Status.Code.UNAUTHENTICATED, e.status().code());
  }

  @Test
  void aPolicyNamingWhatTheServerDoesNotServeIsRefusedAtBuild() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TripleServer.builder()
        .addService(EchoService.class, new EchoServiceImpl())
        .accessPolicy(bearerPolicy().permitUnauthenticated("triple.test.EchoService/ecko").build())
        .build());
    assertTrue(e.getMessage().contains("triple.test.EchoService/ecko"), e.getMessage());
  }

  @Test
  void curlGets401WithoutAToken403WhenDeniedAnd200WithOne() throws Exception {
    startServer(bearerPolicy()
        .authorize("triple.test.EchoService/echoAsync", (who, call) -> who.getName().equals("admin"))
        .build(), null);
    String base = "http://127.0.0.1:" + fixture.server().port() + "/triple.test.EchoService/";

    String missing = curl(base + "echo");
    assertTrue(missing.startsWith("401\n"), missing);
    assertTrue(missing.contains("\"code\":\"unauthenticated\""), missing);

    String denied = curl(base + "echoAsync", "-H", "authorization: Bearer alice");
    assertTrue(denied.startsWith("403\n"), denied);
    assertTrue(denied.contains("\"code\":\"permission_denied\""), denied);

    String ok = curl(base + "echo", "-H", "authorization: Bearer alice");
    assertTrue(ok.startsWith("200\n{\"message\":\"hello\""), ok);
    assertEquals(1, service.callsServed.get());
  }

  /** The HTTP status, a newline, and the body. */
  private static String curl(String url, String... headers) throws Exception {
    List<String> arguments = new ArrayList<>(List.of("-o", "-", "-w", "\n%{http_code}",
        "-H", "content-type: application/json", "-d", "{\"message\":\"hello\"}"));
    arguments.addAll(List.of(headers));
    arguments.add(url);
    Curl.Result curl = Curl.run(arguments);
    assertEquals(0, curl.exitCode(), curl.output());
    // -w writes the status after the body: put it first.
    int cut = curl.output().lastIndexOf('\n');
    return curl.output().substring(cut + 1) + "\n" + curl.output().substring(0, cut);
  }
}
