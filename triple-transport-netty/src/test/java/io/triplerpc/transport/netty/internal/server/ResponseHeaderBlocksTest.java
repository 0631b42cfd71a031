package io.triplerpc.transport.netty.internal.server;

import static io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.HEADERS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer.Frame;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The header blocks a gRPC response goes out with: the usual ones are shared by every call, so one
 * call's metadata, encoding or status must never show in another's.
 */
class ResponseHeaderBlocksTest {

  /** How the call on the next stream answers, taken in order. */
  private final List<Consumer<ServerStream>> answers = new ArrayList<>();
  private final ServerTransportListener listener = (stream, request) -> {
    answers.remove(0).accept(stream);
    return new DiscardingStreamListener();
  };

  private NettyServerTransport transport;
  private EmbeddedHttp2Peer client;

  @BeforeEach
  void connect() throws Exception {
    transport = NettyServerTransport.start(new InetSocketAddress("127.0.0.1", 0), ServerTransportOptions.DEFAULTS, listener);
    client = EmbeddedServerConnection.open(transport, listener, ServerTransportOptions.DEFAULTS, Ticker.newMockTicker());
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    transport.shutdownNow();
    transport.terminationFuture().get(10, TimeUnit.SECONDS);
  }

  private static void answer(ServerStream stream, Metadata headers, MessageEncoding encoding, Status status,
      Metadata trailers) {
    stream.writeHeaders(headers, encoding, false);
    ByteBuf message = stream.alloc().buffer(6);
    message.writeByte(0).writeInt(1).writeByte(42);
    stream.writeMessage(message, false);
    stream.close(status, trailers);
  }

  private static Metadata metadata(String key, String value) {
    Metadata metadata = new Metadata();
    metadata.put(key, value);
    return metadata;
  }

  /** The header blocks of the call on {@code streamId}, each as a sorted map of its fields. */
  private List<Map<String, String>> call(int streamId) {
    client.sendGrpcRequestHeaders(streamId, "/svc/Method");
    client.runPendingTasks();
    List<Map<String, String>> blocks = new ArrayList<>();
    for (Frame frame : client.frames(HEADERS)) {
      assertEquals(streamId, frame.streamId());
      Http2Headers headers = client.headers(frame);
      Map<String, String> fields = new TreeMap<>();
      headers.forEach(field -> fields.put(field.getKey().toString(), field.getValue().toString()));
      blocks.add(fields);
    }
    return blocks;
  }

  @Test
  void oneCallsMetadataEncodingAndStatusNeverReachAnother() {
    Map<String, String> plainHeaders = Map.of(":status", "200", "content-type", "application/grpc",
        "grpc-accept-encoding", MessageEncoding.ACCEPT_ENCODING);
    Map<String, String> okTrailers = Map.of("grpc-status", "0");

    answers.add(stream -> answer(stream, new Metadata(), null, Status.OK, new Metadata()));
    assertEquals(List.of(plainHeaders, okTrailers), call(1));

    answers.add(stream -> answer(stream, metadata("x-header", "one"), MessageEncoding.GZIP, Status.OK,
        metadata("x-trailer", "two")));
    Map<String, String> headers = new TreeMap<>(plainHeaders);
    headers.put("x-header", "one");
    headers.put("grpc-encoding", "gzip");
    assertEquals(List.of(headers, Map.of("grpc-status", "0", "x-trailer", "two")), call(3));

    answers.add(stream -> answer(stream, new Metadata(), null, Status.NOT_FOUND.withDescription("no such user"),
        new Metadata()));
    assertEquals(List.of(plainHeaders, Map.of("grpc-status", "5", "grpc-message", "no such user")), call(5));

    answers.add(stream -> answer(stream, new Metadata(), null, Status.OK, new Metadata()));
    assertEquals(List.of(plainHeaders, okTrailers), call(7), "the shared blocks as they were");
  }
}
