package io.triplerpc.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Calls over HTTP/1.1 with the Connect protocol (what curl sends) go through the same server interceptors:
 * a {@code traceparent} header makes the server span a child of the caller's, and the service's own
 * calls follow in the same trace.
 */
class WebProtocolsTracingTest {

  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT_ID = "00f067aa0ba902b7";
  private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + PARENT_ID + "-01";

  @RegisterExtension final TracedChain chain = new TracedChain();

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private HttpResponse<String> post(String method, String json, String... headers) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + chain.portOfA() + "/triple.tracing.Relay/" + method))
        .timeout(Duration.ofSeconds(10))
        .header("content-type", "application/json")
        .header("traceparent", TRACEPARENT)
        .headers(headers.length == 0 ? new String[] {"x-test", "1"} : headers)
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aCurlCallContinuesTheTraceOfItsTraceparent() throws Exception {
    chain.start();
    HttpResponse<String> response = post("Unary", "\"hi\"");
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("\"b:hi\"", response.body());

    List<SpanData> servers = chain.spans.await("triple.tracing.Relay/Unary", SpanKind.SERVER, 2);
    SpanData serverA = servers.stream().filter(span -> span.getParentSpanId().equals(PARENT_ID)).findFirst()
        .orElseThrow(() -> new AssertionError("no server span under the caller's: " + servers));
    assertEquals(TRACE_ID, serverA.getTraceId());
    assertEquals("connectrpc", serverA.getAttributes().get(AttributeKey.stringKey("rpc.system.name")),
        "curl's JSON call is Connect's unary protocol");
    assertTrue(serverA.getParentSpanContext().isRemote());
    assertEquals(List.of(1L), RecordedSpans.messages(serverA, "RECEIVED"));
    assertEquals(List.of(1L), RecordedSpans.messages(serverA, "SENT"));
    SpanData clientOfA = chain.spans.await("triple.tracing.Relay/Unary", SpanKind.CLIENT);
    assertEquals(serverA.getSpanId(), clientOfA.getParentSpanId());
    for (SpanData span : servers) {
      assertEquals(TRACE_ID, span.getTraceId());
      assertEquals("OK", span.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")));
    }
  }

  @Test
  void aConnectDeadlineThatPassesOnTheServerIsDeadlineExceeded() throws Exception {
    chain.start();
    // The client sets a deadline but never cancels: the server's own deadline ends the call.
    HttpResponse<String> response = post("Slow", "\"wait\"", "connect-timeout-ms", "200");
    assertEquals(504, response.statusCode(), response.body());
    SpanData server = chain.spans.await("triple.tracing.Relay/Slow", SpanKind.SERVER);
    assertEquals(PARENT_ID, server.getParentSpanId());
    assertEquals("DEADLINE_EXCEEDED", server.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")));
    assertEquals("DEADLINE_EXCEEDED", server.getAttributes().get(AttributeKey.stringKey("error.type")));
    assertEquals(StatusCode.ERROR, server.getStatus().getStatusCode());
  }
}
