package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.HEADERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Headers whose value is new on every call (trace ids, a deadline's time left) stay out of the HPACK
 * table, so that they never push out the headers every call repeats, and refer to the name their
 * first call's entry gave the table.
 */
class ClientHeaderIndexingTest {

  private final ClientStreamListener listener = EmbeddedClientConnection.releasingListener();

  @Test
  void callsWithNewTraceIdsAndDeadlinesKeepTheirOtherHeadersIndexed() throws Exception {
    try (EmbeddedClientConnection connection = EmbeddedClientConnection.withDefaults()) {
      Set<Integer> blockSizes = new TreeSet<>();
      // 200 calls of about 100 bytes of per-call values each: five times what a 4 KiB table holds.
      for (int i = 1; i <= 200; i++) {
        String traceparent = String.format("00-%032x-%016x-01", i, i);
        String timeout = (1_000_000 + i) + "u";
        Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path("/test.Echo/Unary")
            .authority("127.0.0.1:1")
            .set("traceparent", traceparent)
            .set(GrpcHeaders.GRPC_TIMEOUT, timeout)
            .set("x-tenant", "the-same-on-every-call");
        NettyClientStream stream = connection.startCall(headers, listener, GrpcClientFraming.INSTANCE, 0);
        List<Frame> frames = connection.server.frames(HEADERS);
        assertEquals(1, frames.size());
        Http2Headers received = connection.server.headers(frames.get(0));
        assertEquals(traceparent, received.get("traceparent").toString());
        assertEquals(timeout, received.get(GrpcHeaders.GRPC_TIMEOUT).toString());
        assertEquals("the-same-on-every-call", received.get("x-tenant").toString());
        if (i > 1) {
          byte[] block = frames.get(0).payload();
          blockSizes.add(block.length);
          assertFalse(new String(block, StandardCharsets.ISO_8859_1).contains("traceparent"),
              "the name is a reference to the first call's entry");
        }
        stream.cancel(Status.CANCELLED);
        connection.server.runPendingTasks();
        connection.server.frames();
      }
      assertEquals(1, blockSizes.size(),
          "after the first call every header block is as small as the second: " + blockSizes);
    }
  }
}
