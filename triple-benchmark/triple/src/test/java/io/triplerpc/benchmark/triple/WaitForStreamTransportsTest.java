package io.triplerpc.benchmark.triple;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.TripleServer;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The benchmark's wait for the stream (the waitForStream ablation), outside the transport. */
class WaitForStreamTransportsTest {

  private static final MessageCodec<byte[]> BYTES = new MessageCodec<>() {
    @Override
    public String subtype() {
      return "proto";
    }

    @Override
    public int serializedSize(byte[] value) {
      return value.length;
    }

    @Override
    public void write(byte[] value, OutputStream out) throws IOException {
      out.write(value);
    }

    @Override
    public byte[] read(InputStream in) throws IOException {
      return in.readAllBytes();
    }
  };

  private static final MethodDescriptor<byte[], byte[]> METHOD =
      MethodDescriptor.of("test.Absent", "Call", MethodType.UNARY, BYTES, BYTES, false);

  private TripleServer server;

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void theClientFindsTheBenchmarksFactoryBeforeTheTransportsOwn() {
    assertInstanceOf(WaitForStreamTransports.class,
        ServiceLoader.load(ClientTransportFactory.class).findFirst().orElseThrow());
  }

  @Test
  void aStreamStartedOffTheEventLoopExistsOnceStartReturns() {
    server = TripleServer.builder().host("127.0.0.1").port(0).build().start();
    List<String> events = new CopyOnWriteArrayList<>();
    try (WaitForStreamTransports factory = new WaitForStreamTransports(true)) {
      ClientTransport transport = factory.newTransport(
          new InetSocketAddress("127.0.0.1", server.port()), ClientTransportOptions.DEFAULTS);
      ClientStream stream = transport.newStream(METHOD, new Metadata(), 0, null);
      stream.start(new ClientStreamListener() {
        @Override
        public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {}

        @Override
        public void onMessage(ByteBuf payload, boolean compressed) {
          payload.release();
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
          events.add("close");
        }

        @Override
        public void onReady() {
          events.add("ready");
        }
      }, false);
      assertEquals("ready", events.isEmpty() ? "nothing yet" : events.get(0), "start waited for the stream");
      stream.cancel(Status.CANCELLED);
      transport.shutdown();
    }
  }
}
