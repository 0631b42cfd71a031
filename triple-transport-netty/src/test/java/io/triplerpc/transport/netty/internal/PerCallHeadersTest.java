package io.triplerpc.transport.netty.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which headers the HPACK encoder keeps out of its table: those of trace ids and deadlines only. */
class PerCallHeadersTest {

  @Test
  void onlyTheNamesOfPerCallValuesAreKeptOut() {
    for (String name : List.of("grpc-timeout", "traceparent", "b3", "x-b3-traceid", "x-b3-spanid",
        "x-b3-parentspanid", "uber-trace-id", "sw8", "grpc-trace-bin")) {
      assertTrue(PerCallHeaders.isPerCall(name), name);
    }
    for (String name : List.of(":path", ":authority", "content-type", "te", "user-agent", "grpc-status",
        "grpc-message", "tracestate", "baggage", "authorization", "x-b3-sampled", "b4", "traceparenT")) {
      assertFalse(PerCallHeaders.isPerCall(name), name);
    }
  }
}
