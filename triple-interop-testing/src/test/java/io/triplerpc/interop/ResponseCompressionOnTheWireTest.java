package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientStreamTracer;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.testing.integration.Messages.BoolValue;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the interop cases cannot see: whether Triple's server compressed each response message on
 * the wire. grpc-java's client tells through its stream tracer, which reports every inbound
 * message's size as it arrived; payloads of zeros shrink to almost nothing under gzip.
 */
class ResponseCompressionOnTheWireTest {

  private static TripleServer server;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() {
    server = InteropServer.start("127.0.0.1", 0);
    channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void unaryResponseIsCompressedOnlyWhenTheRequestAsks() {
    for (boolean compressed : new boolean[] {true, false}) {
      WireSizes sizes = new WireSizes();
      TestServiceGrpc.newBlockingStub(channel).withInterceptors(sizes).withDeadlineAfter(30, TimeUnit.SECONDS)
          .unaryCall(SimpleRequest.newBuilder().setResponseSize(314159)
              .setResponseCompressed(BoolValue.newBuilder().setValue(compressed)).build());
      sizes.assertCompressed(0, compressed, 314159);
    }
  }

  @Test
  void streamedResponsesAreCompressedOneByOneAsEachParameterAsks() {
    WireSizes sizes = new WireSizes();
    StreamingOutputCallRequest request = StreamingOutputCallRequest.newBuilder()
        .addResponseParameters(ResponseParameters.newBuilder().setSize(31415)
            .setCompressed(BoolValue.newBuilder().setValue(true)))
        .addResponseParameters(ResponseParameters.newBuilder().setSize(92653)
            .setCompressed(BoolValue.newBuilder().setValue(false)))
        .addResponseParameters(ResponseParameters.newBuilder().setSize(2653)
            .setCompressed(BoolValue.newBuilder().setValue(true)))
        .build();
    TestServiceGrpc.newBlockingStub(channel).withInterceptors(sizes).withDeadlineAfter(30, TimeUnit.SECONDS)
        .streamingOutputCall(request)
        .forEachRemaining(response -> { });
    assertEquals(3, sizes.count(), "responses seen by the tracer: " + sizes);
    List<Integer> payloads = List.of(31415, 92653, 2653);
    List<Boolean> compressed = List.of(true, false, true);
    for (int i = 0; i < 3; i++) {
      sizes.assertCompressed(i, compressed.get(i), payloads.get(i));
    }
  }

  /** Records each inbound message's size on the wire (after any compression), by sequence number. */
  private static final class WireSizes extends ClientStreamTracer.Factory implements ClientInterceptor {
    private final Map<Integer, Long> bySeqNo = new ConcurrentHashMap<>();

    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      return new ClientStreamTracer() {
        @Override
        public void inboundMessageRead(int seqNo, long wireSize, long uncompressedSize) {
          bySeqNo.put(seqNo, wireSize);
        }
      };
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      return next.newCall(method, options.withStreamTracerFactory(this));
    }

    int count() {
      return bySeqNo.size();
    }

    /** A compressed message of zeros is a small fraction of its payload; an uncompressed one is bigger. */
    void assertCompressed(int seqNo, boolean compressed, int payloadSize) {
      Long wireSize = bySeqNo.get(seqNo);
      assertTrue(wireSize != null, "no size recorded for response " + seqNo + ": " + bySeqNo);
      if (compressed) {
        assertTrue(wireSize < payloadSize / 10,
            "response " + seqNo + " (" + payloadSize + " zeros) took " + wireSize + " bytes: not compressed");
      } else {
        assertTrue(wireSize >= payloadSize,
            "response " + seqNo + " (" + payloadSize + " zeros) took " + wireSize + " bytes: compressed");
      }
    }

    @Override
    public String toString() {
      return bySeqNo.toString();
    }
  }
}
