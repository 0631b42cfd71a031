package io.triplerpc.opentelemetry;

import static io.triplerpc.opentelemetry.Relay.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How calls that fail end their spans: a client span is an error for every code but OK; a server span
 * only for the codes that say the server failed (UNKNOWN, DEADLINE_EXCEEDED, UNIMPLEMENTED, INTERNAL,
 * UNAVAILABLE, DATA_LOSS). Every span ends once, whatever ended the call.
 */
class TracingErrorsTest {

  private static final String UNARY = "triple.tracing.Relay/Unary";

  @RegisterExtension final TracedChain chain = new TracedChain();

  @Test
  void invalidArgumentIsAnErrorOfTheClientOnly() throws Exception {
    Relay relay = chain.start().relayA();
    StatusException thrown = assertThrows(StatusException.class, () -> relay.unary(text("status:INVALID_ARGUMENT")));
    assertEquals(Status.Code.INVALID_ARGUMENT, thrown.status().code());

    SpanData client = chain.spans.await(UNARY, SpanKind.CLIENT);
    assertError(client, "INVALID_ARGUMENT", "asked for INVALID_ARGUMENT");
    SpanData server = chain.spans.await(UNARY, SpanKind.SERVER);
    assertEquals("INVALID_ARGUMENT", status(server));
    assertNull(server.getAttributes().get(AttributeKey.stringKey("error.type")));
    assertEquals(StatusCode.UNSET, server.getStatus().getStatusCode());
    assertEquals(client.getSpanId(), server.getParentSpanId());
  }

  @Test
  void unavailableAndInternalAreErrorsOfBothSides() throws Exception {
    Relay relay = chain.start().relayA();
    for (String code : List.of("UNAVAILABLE", "INTERNAL")) {
      assertThrows(StatusException.class, () -> relay.unary(text("status:" + code)));
    }
    List<SpanData> clients = chain.spans.await(UNARY, SpanKind.CLIENT, 2);
    List<SpanData> servers = chain.spans.await(UNARY, SpanKind.SERVER, 2);
    for (int i = 0; i < 2; i++) {
      String code = List.of("UNAVAILABLE", "INTERNAL").get(i);
      SpanData client = clients.get(i);
      assertError(client, code, "asked for " + code);
      SpanData server = servers.stream().filter(span -> span.getParentSpanId().equals(client.getSpanId()))
          .findFirst().orElseThrow();
      assertError(server, code, "asked for " + code);
    }
  }

  @Test
  void anExceptionThatIsNoStatusIsUnknownOnBothSides() throws Exception {
    Relay relay = chain.start().relayA();
    StatusException thrown = assertThrows(StatusException.class, () -> relay.unary(text("throw")));
    assertEquals(Status.Code.UNKNOWN, thrown.status().code());
    assertEquals("UNKNOWN", chain.spans.await(UNARY, SpanKind.CLIENT)
        .getAttributes().get(AttributeKey.stringKey("error.type")));
    SpanData server = chain.spans.await(UNARY, SpanKind.SERVER);
    assertEquals("UNKNOWN", server.getAttributes().get(AttributeKey.stringKey("error.type")));
    assertEquals(StatusCode.ERROR, server.getStatus().getStatusCode());
  }

  @Test
  void aCancelledCallEndsEverySpanOfTheChainOnce() throws Exception {
    Relay relay = chain.start().relayA();
    RecordingObserver<StringValue> responses = new RecordingObserver<>();
    ClientCallStreamObserver<StringValue> requests = (ClientCallStreamObserver<StringValue>) relay.bidi(responses);
    requests.onNext(text("1"));
    // The echo came back through A from B: every hop's call is open.
    responses.awaitFirst();
    requests.cancel("the test is done with it", null);
    responses.awaitEnd();
    assertInstanceOf(StatusException.class, responses.error());

    String bidi = "triple.tracing.Relay/Bidi";
    List<SpanData> clients = chain.spans.await(bidi, SpanKind.CLIENT, 2);
    List<SpanData> servers = chain.spans.await(bidi, SpanKind.SERVER, 2);
    for (SpanData client : clients) {
      assertError(client, "CANCELLED", null);
    }
    for (SpanData server : servers) {
      // The client went away: the server did not fail.
      assertEquals("CANCELLED", status(server));
      assertEquals(StatusCode.UNSET, server.getStatus().getStatusCode());
    }
    assertEquals(4, chain.spans.all().size(), "spans: " + chain.spans.all());
  }

  @Test
  void aRequestTheServerCannotReadEndsTheServerSpanWithItsStatus() throws Exception {
    chain.start();
    // The server closes the call itself, before any interceptor sees the message: its span still ends
    // with the status the client got.
    TripleServer small = chain.server(TripleServer.builder().maxInboundMessageSize(16).addService(Relay.class, chain.b));
    Relay relay = chain.client(small.port()).proxy(Relay.class);
    StatusException thrown = assertThrows(StatusException.class, () -> relay.unary(text("x".repeat(64))));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, thrown.status().code());
    SpanData server = chain.spans.await(UNARY, SpanKind.SERVER);
    assertEquals("RESOURCE_EXHAUSTED", status(server));
    assertEquals(StatusCode.UNSET, server.getStatus().getStatusCode());
  }

  @Test
  void aCallPastItsDeadlineIsAnErrorOfTheClient() throws Exception {
    chain.start();
    Relay relay = chain.client(chain.portOfA()).proxy(Relay.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(200)));
    CompletionException thrown = assertThrows(CompletionException.class, () -> relay.slow(text("wait")).join());
    assertEquals(Status.Code.DEADLINE_EXCEEDED, Status.fromThrowable(thrown.getCause()).code());
    assertError(chain.spans.await("triple.tracing.Relay/Slow", SpanKind.CLIENT), "DEADLINE_EXCEEDED", null);
    SpanData server = chain.spans.await("triple.tracing.Relay/Slow", SpanKind.SERVER);
    // The server's deadline, counted from when the request arrived, ends a little after the client's, whose
    // reset usually arrives first: then the server sees a cancel. Either way the two attributes agree.
    String code = status(server);
    assertTrue(code.equals("DEADLINE_EXCEEDED") || code.equals("CANCELLED"), code);
    assertEquals(code.equals("DEADLINE_EXCEEDED") ? StatusCode.ERROR : StatusCode.UNSET,
        server.getStatus().getStatusCode());
  }

  @Test
  void anUnknownMethodHasAClientSpanOnly() throws Exception {
    chain.start();
    TripleClient client = chain.client(chain.portOfA());
    StatusException thrown = assertThrows(StatusException.class,
        () -> client.proxy(Unserved.class).missing(text("anyone?")));
    assertEquals(Status.Code.UNIMPLEMENTED, thrown.status().code());
    assertError(chain.spans.await("triple.tracing.Relay/Missing", SpanKind.CLIENT), "UNIMPLEMENTED",
        "Method not found: triple.tracing.Relay/Missing");
    // A served call afterwards, its server span awaited: the unknown one, answered before any
    // interceptor, never had one.
    client.proxy(Relay.class).unary(text("hi"));
    chain.spans.await(UNARY, SpanKind.SERVER, 2);
    assertTrue(chain.spans.named("triple.tracing.Relay/Missing", SpanKind.SERVER).isEmpty());
  }

  @Test
  void aCallThatNeverReachesAServerIsUnavailable() throws Exception {
    chain.start();
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Relay relay = chain.client(closedPort).proxy(Relay.class);
    StatusException thrown = assertThrows(StatusException.class, () -> relay.unary(text("hello?")));
    assertEquals(Status.Code.UNAVAILABLE, thrown.status().code());
    SpanData client = chain.spans.await(UNARY, SpanKind.CLIENT);
    assertError(client, "UNAVAILABLE", thrown.status().description());
    assertEquals(closedPort, client.getAttributes().get(AttributeKey.longKey("server.port")));
  }

  private static String status(SpanData span) {
    return span.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code"));
  }

  /** An error span with code {@code code} (as status code and error type) and {@code description} when not null. */
  private static void assertError(SpanData span, String code, String description) {
    assertEquals(code, status(span), span.toString());
    assertEquals(code, span.getAttributes().get(AttributeKey.stringKey("error.type")), span.toString());
    assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode(), span.toString());
    if (description != null) {
      assertEquals(description, span.getStatus().getDescription());
    }
  }
}
