package io.triplerpc.interop.seeds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.InternalNettyChannelBuilder;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.EchoStatus;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.Messages.StreamingInputCallRequest;
import io.grpc.testing.integration.Messages.StreamingInputCallResponse;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallResponse;
import io.grpc.testing.integration.TestService;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.ClientProtocol;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.InteropServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the fuzz targets' seeds from real peers' traffic: real clients call Triple's interop server
 * through a {@link RecordingRelay}, and each connection's bytes are written into the kept inputs of the
 * target that reads them ({@code triple-transport-netty/src/test/resources/.../<Class>Inputs/<method>/}),
 * wrapped as that target lays out its input, under a name that says which peer sent what:
 *
 * <ul>
 *   <li>{@code ServerInputFuzzTest#http2Frames}: what HTTP/2 clients send after the preface (grpc-java's
 *       client, curl {@code --http2-prior-knowledge}, Triple's client in gRPC-Web and Connect);
 *   <li>{@code ServerInputFuzzTest#connectionBytes}: whole connections as HTTP/1.1 clients send them (curl,
 *       with and without keep-alive; Triple's client in gRPC-Web and Connect over HTTP/1.1), and a few
 *       HTTP/2 ones from their first byte (prior knowledge, curl's {@code Upgrade: h2c});
 *   <li>{@code Http1ClientFuzzTest#responseBytes}: what Triple's server answered Triple's HTTP/1.1 client;
 *   <li>{@code ServerInputFuzzTest#envelopes}: the messages of grpc-java's client-streaming call, and the
 *       bodies of Triple's server-streaming answers in gRPC-Web and Connect.
 * </ul>
 *
 * <p>Off by default (it rewrites committed files); {@code docs/reliability.md} gives the command. Every
 * message is a few bytes, so that a seed stays small. The relay listens on a fixed port
 * ({@code -Dtriple.fuzz.seedPort}, default {@value #DEFAULT_PORT}), since clients name it in their
 * {@code Host} or {@code :authority}: a recording made again on another machine is the same bytes as long
 * as the peers' versions are the same and their frames go out in the same order.
 */
@EnabledIfSystemProperty(named = "triple.fuzz.recordSeeds", matches = "true")
class FuzzSeedRecorder {

  static final int DEFAULT_PORT = 40036;
  private static final long SECONDS = 20;
  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  /** The first byte of a server target's input: pieces of 4,081 bytes, so a seed arrives as it was sent. */
  private static final int WHOLE = 0xff;
  /** Http1ClientFuzzTest's framings (its first byte; 0x80 adds server streaming). */
  private static final int GRPC_WEB = 0;
  private static final int CONNECT_UNARY = 1;
  private static final int CONNECT_STREAM = 2;
  private static final int SERVER_STREAMING = 0x80;

  private static final Path INPUTS = Path.of(System.getProperty("triple.fuzz.seedDir",
      "../triple-transport-netty/src/test/resources/io/triplerpc/transport/netty/internal"));
  private static final Path CONNECTION_BYTES = INPUTS.resolve("server/ServerInputFuzzTestInputs/connectionBytes");
  private static final Path HTTP2_FRAMES = INPUTS.resolve("server/ServerInputFuzzTestInputs/http2Frames");
  private static final Path ENVELOPES = INPUTS.resolve("server/ServerInputFuzzTestInputs/envelopes");
  private static final Path RESPONSE_BYTES = INPUTS.resolve("client/Http1ClientFuzzTestInputs/responseBytes");

  private static TripleServer server;
  private static RecordingRelay relay;
  private static String base;

  @BeforeAll
  static void start() throws IOException {
    assertTrue(Files.isDirectory(CONNECTION_BYTES), () -> CONNECTION_BYTES.toAbsolutePath() + " (-Dtriple.fuzz.seedDir)");
    server = InteropServer.start("127.0.0.1", 0);
    relay = RecordingRelay.start(Integer.getInteger("triple.fuzz.seedPort", DEFAULT_PORT), server.localAddress());
    base = "http://127.0.0.1:" + relay.port() + "/grpc.testing.TestService/";
  }

  @AfterAll
  static void stop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  /** grpc-java's client (HTTP/2): each call shape on a channel of its own. */
  @Test
  void grpcJava() throws Exception {
    grpcJava("grpc-java-unary", channel -> {
      SimpleResponse response = TestServiceGrpc.newBlockingStub(channel).unaryCall(SimpleRequest.newBuilder()
          .setResponseSize(4).setPayload(payload(8)).build());
      assertEquals(4, response.getPayload().getBody().size());
    });
    grpcJava("grpc-java-unary-gzip", channel -> {
      SimpleResponse response = TestServiceGrpc.newBlockingStub(channel).withCompression("gzip")
          .unaryCall(SimpleRequest.newBuilder().setResponseSize(4).setPayload(payload(64)).build());
      assertEquals(4, response.getPayload().getBody().size());
    });
    grpcJava("grpc-java-server-streaming", channel -> {
      List<StreamingOutputCallResponse> responses = new ArrayList<>();
      TestServiceGrpc.newBlockingStub(channel).streamingOutputCall(streamingRequest(0, 1, 2, 3))
          .forEachRemaining(responses::add);
      assertEquals(3, responses.size());
    });
    grpcJava("grpc-java-client-streaming", channel -> {
      Collect<StreamingInputCallResponse> response = new Collect<>();
      StreamObserver<StreamingInputCallRequest> requests = TestServiceGrpc.newStub(channel).streamingInputCall(response);
      for (int size : new int[] {3, 5, 7}) {
        requests.onNext(StreamingInputCallRequest.newBuilder().setPayload(payload(size)).build());
      }
      requests.onCompleted();
      assertEquals(15, response.done.get(SECONDS, TimeUnit.SECONDS).get(0).getAggregatedPayloadSize());
    });
    grpcJava("grpc-java-bidi-ping-pong", channel -> {
      Collect<StreamingOutputCallResponse> responses = new Collect<>();
      StreamObserver<StreamingOutputCallRequest> requests = TestServiceGrpc.newStub(channel).fullDuplexCall(responses);
      for (int size : new int[] {2, 4}) {
        requests.onNext(streamingRequest(size, size));
        // Ping-pong: the next request once this one's answer came.
        responses.awaitCount(1);
      }
      requests.onCompleted();
      assertEquals(2, responses.done.get(SECONDS, TimeUnit.SECONDS).size());
    });
    grpcJava("grpc-java-cancel-after-first-response", channel -> {
      Collect<StreamingOutputCallResponse> responses = new Collect<>();
      ClientCallStreamObserver<StreamingOutputCallRequest> requests =
          (ClientCallStreamObserver<StreamingOutputCallRequest>) TestServiceGrpc.newStub(channel)
              .fullDuplexCall(responses);
      requests.onNext(streamingRequest(4, 4));
      responses.awaitCount(1);
      requests.cancel("the recorder cancels", null);
      assertThrows(Exception.class, () -> responses.done.get(SECONDS, TimeUnit.SECONDS));
    });
  }

  /** One connection of grpc-java's client: its frames after the preface, and the whole of it for one case. */
  private static void grpcJava(String name, GrpcJavaCalls calls) throws Exception {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", relay.port()).usePlaintext();
    // Census (on this class path through grpc-interop-testing) would send a random trace id in every
    // call's grpc-trace-bin, and a recording made again would differ for nothing.
    InternalNettyChannelBuilder.setTracingEnabled(builder, false);
    InternalNettyChannelBuilder.setStatsEnabled(builder, false);
    ManagedChannel channel = builder.build();
    try {
      calls.run(channel);
    } finally {
      channel.shutdown();
      assertTrue(channel.awaitTermination(SECONDS, TimeUnit.SECONDS), "grpc-java's channel ended");
    }
    RecordingRelay.Connection connection = connection();
    writeHttp2(name, connection.upstream());
    if (name.equals("grpc-java-unary")) {
      write(CONNECTION_BYTES, name, WHOLE, connection.upstream());
    }
    if (name.equals("grpc-java-client-streaming")) {
      writeEnvelopes(name, 0, http2Data(connection.upstream()));
    }
  }

  private interface GrpcJavaCalls {
    void run(ManagedChannel channel) throws Exception;
  }

  /** curl: a JSON POST over HTTP/1.1 (closed, kept alive), HTTP/2 with prior knowledge, and h2c upgrade. */
  @Test
  void curl() throws Exception {
    String json = "{\"responseSize\":3,\"payload\":{\"body\":\"AAEC\"}}";
    String answer = "{\"payload\":{\"body\":\"AAAA\"}}";
    List<String> post = List.of("-H", "content-type: application/json", "--data-binary", json, base + "UnaryCall");

    // One request, then curl closes the connection (HTTP/1.1 keeps it open otherwise).
    assertEquals(answer, curl("curl-http1-json", List.of("-H", "connection: close"), post));
    write(CONNECTION_BYTES, "curl-http1-json", WHOLE, connection().upstream());

    // Two requests on one kept-alive connection.
    assertEquals(answer + answer, curl("curl-http1-json-keep-alive", post, List.of(base + "UnaryCall")));
    write(CONNECTION_BYTES, "curl-http1-json-keep-alive", WHOLE, connection().upstream());

    // HTTP/2 without asking first: the preface goes to connectionBytes (detection), the rest to http2Frames.
    assertEquals(answer, curl("curl-http2-json", List.of("--http2-prior-knowledge"), post));
    byte[] h2 = connection().upstream();
    writeHttp2("curl-http2-json", h2);
    write(CONNECTION_BYTES, "curl-http2-prior-knowledge-json", WHOLE, h2);

    // HTTP/1.1 that asks to become HTTP/2 (Upgrade: h2c), answered in HTTP/2.
    assertEquals(answer, curl("curl-http2-upgrade-json", List.of("--http2"), post));
    write(CONNECTION_BYTES, "curl-http2-upgrade-json", WHOLE, connection().upstream());
  }

  /** Runs curl with {@code options} then {@code request}; returns what it printed. */
  private static String curl(String what, List<String> options, List<String> request) throws Exception {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
    command.addAll(options);
    command.addAll(request);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(SECONDS, TimeUnit.SECONDS), what + ": curl finished");
    assertEquals(0, process.exitValue(), () -> what + ": " + output);
    return output;
  }

  /** Triple's client in gRPC-Web and Connect, over HTTP/1.1 (with Triple's server's answers) and HTTP/2. */
  @Test
  void tripleClient() throws Exception {
    for (ClientProtocol protocol : new ClientProtocol[] {ClientProtocol.GRPC_WEB, ClientProtocol.CONNECT}) {
      boolean web = protocol == ClientProtocol.GRPC_WEB;
      String prefix = web ? "grpc-web" : "connect";
      int unaryFraming = web ? GRPC_WEB : CONNECT_UNARY;
      int streamFraming = SERVER_STREAMING | (web ? GRPC_WEB : CONNECT_STREAM);
      for (boolean http1 : new boolean[] {true, false}) {
        tripleClient(protocol, http1, prefix + "-unary", unaryFraming, true, service -> {
          SimpleResponse response = service.unaryCall(SimpleRequest.newBuilder().setResponseSize(4)
              .setPayload(payload(8)).build());
          assertEquals(4, response.getPayload().getBody().size());
        });
        // gRPC-Web frames a server-streaming request as a unary one: only Connect's is a request seed.
        tripleClient(protocol, http1, prefix + "-server-streaming", streamFraming, !web, service -> {
          Collect<StreamingOutputCallResponse> responses = new Collect<>();
          service.streamingOutputCall(streamingRequest(0, 1, 2, 3), responses);
          assertEquals(3, responses.done.get(SECONDS, TimeUnit.SECONDS).size());
        });
      }
      // Errors: what the server answers (the requests are shaped as the ones above).
      tripleClient(protocol, true, prefix + "-unary-error", unaryFraming, false, service -> {
        StatusException e = assertThrows(StatusException.class, () -> service.unaryCall(
            SimpleRequest.newBuilder().setResponseStatus(echo()).build()));
        assertEquals(io.triplerpc.Status.Code.UNKNOWN, e.status().code());
      });
      tripleClient(protocol, true, prefix + "-server-streaming-error", streamFraming, false, service -> {
        Collect<StreamingOutputCallResponse> responses = new Collect<>();
        service.streamingOutputCall(streamingRequest(0, 1).toBuilder().setResponseStatus(echo()).build(), responses);
        assertThrows(Exception.class, () -> responses.done.get(SECONDS, TimeUnit.SECONDS));
      });
    }
  }

  /**
   * One call of Triple's client on a connection of its own. Over HTTP/1.1 the response is a
   * {@code responseBytes} seed (its first byte {@code framing}) and, if {@code request}, the request a
   * {@code connectionBytes} one; over HTTP/2 the frames after the preface are an {@code http2Frames} seed.
   */
  private static void tripleClient(ClientProtocol protocol, boolean http1, String call, int framing,
      boolean request, TripleCalls calls) throws Exception {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", relay.port()).protocol(protocol)
        .http1(http1).build()) {
      calls.run(client.proxy(TestService.class));
    }
    RecordingRelay.Connection connection = connection();
    String name = "triple-client-" + call + (http1 ? "-http1" : "-http2");
    if (http1) {
      write(RESPONSE_BYTES, "triple-server-" + call, framing, WHOLE, connection.downstream());
      if ((framing & SERVER_STREAMING) != 0) {
        // The response's envelopes, ended by gRPC-Web's trailers (0x80) or Connect's end of stream (0x02).
        writeEnvelopes("triple-server-" + call, (framing & 0x7f) == GRPC_WEB ? 1 : 2, body(connection.downstream()));
      }
    }
    if (request && http1) {
      write(CONNECTION_BYTES, name, WHOLE, connection.upstream());
    } else if (request) {
      writeHttp2(name, connection.upstream());
    }
  }

  private interface TripleCalls {
    void run(TestService service) throws Exception;
  }

  private static Payload payload(int size) {
    byte[] body = new byte[size];
    for (int i = 0; i < size; i++) {
      body[i] = (byte) i;
    }
    return Payload.newBuilder().setBody(ByteString.copyFrom(body)).build();
  }

  private static StreamingOutputCallRequest streamingRequest(int payload, int... responseSizes) {
    StreamingOutputCallRequest.Builder request = StreamingOutputCallRequest.newBuilder();
    if (payload > 0) {
      request.setPayload(payload(payload));
    }
    for (int size : responseSizes) {
      request.addResponseParameters(ResponseParameters.newBuilder().setSize(size));
    }
    return request.build();
  }

  /** The status the interop server is asked to answer with (its status_code_and_message case). */
  private static EchoStatus echo() {
    return EchoStatus.newBuilder().setCode(2).setMessage("test status message: seed").build();
  }

  /** The connection the last calls made: exactly one, ended. */
  private static RecordingRelay.Connection connection() throws InterruptedException {
    RecordingRelay.Connection connection = relay.next(SECONDS);
    assertFalse(relay.hasEnded(), "one connection for one seed");
    return connection;
  }

  /** An HTTP/2 connection's bytes after the preface, which http2Frames sends itself. */
  private static void writeHttp2(String name, byte[] upstream) throws IOException {
    assertArrayEquals(PREFACE, Arrays.copyOf(upstream, PREFACE.length), name + " begins with the preface");
    write(HTTP2_FRAMES, name, WHOLE, Arrays.copyOfRange(upstream, PREFACE.length, upstream.length));
  }

  /**
   * An {@code envelopes} seed: the bytes in one piece, read by a deframer whose end flag is the
   * {@code endFlag}-th of the target's (0 gRPC's none, 1 gRPC-Web's 0x80, 2 Connect's 0x02), four
   * messages asked for first. Jazzer's {@code FuzzedDataProvider} takes numbers from the end of the input,
   * last byte first (an int in 0..512 from two bytes, the first taken the high one), and bytes from the
   * front; the target takes, in order: the end flag, "ask for messages" (a boolean), how many (1 to 4),
   * the piece's length less one (0 to 512), then the piece.
   */
  private static void writeEnvelopes(String name, int endFlag, byte[] envelopes) throws IOException {
    int length = envelopes.length - 1;
    assertTrue(length >= 0 && length <= 512, () -> name + ": " + envelopes.length + " bytes of envelopes, 1 to 513 fit one piece");
    write(ENVELOPES, name, new byte[0], concat(envelopes,
        new byte[] {(byte) length, (byte) (length >> 8), 3, 1, (byte) endFlag}));
  }

  /** The payloads of the DATA frames of an HTTP/2 connection's bytes (preface first, one stream, no padding). */
  private static byte[] http2Data(byte[] connection) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int at = PREFACE.length; at + 9 <= connection.length; ) {
      int length = (connection[at] & 0xff) << 16 | (connection[at + 1] & 0xff) << 8 | (connection[at + 2] & 0xff);
      int type = connection[at + 3];
      assertFalse(type == 0 && (connection[at + 4] & 0x08) != 0, "no padded DATA");
      if (type == 0) {
        data.write(connection, at + 9, length);
      }
      at += 9 + length;
    }
    return data.toByteArray();
  }

  /** The body of an HTTP/1.1 response, its chunks joined. */
  private static byte[] body(byte[] response) {
    String text = new String(response, StandardCharsets.ISO_8859_1);
    int start = text.indexOf("\r\n\r\n") + 4;
    assertTrue(start >= 4, "a response head");
    if (!text.substring(0, start).toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
      return Arrays.copyOfRange(response, start, response.length);
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int at = start;
    for (int size; (size = Integer.parseInt(text.substring(at, text.indexOf("\r\n", at)).trim(), 16)) > 0; ) {
      int data = text.indexOf("\r\n", at) + 2;
      body.write(response, data, size);
      at = data + size + 2;
    }
    return body.toByteArray();
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  /** Writes {@code header} bytes then {@code bytes} as the kept input {@code name} of a target. */
  private static void write(Path target, String name, int header, byte[] bytes) throws IOException {
    write(target, name, new byte[] {(byte) header}, bytes);
  }

  private static void write(Path target, String name, int first, int second, byte[] bytes) throws IOException {
    write(target, name, new byte[] {(byte) first, (byte) second}, bytes);
  }

  private static void write(Path target, String name, byte[] header, byte[] bytes) throws IOException {
    assertTrue(bytes.length > 0, name + ": bytes were recorded");
    assertTrue(bytes.length <= 4096, () -> name + ": " + bytes.length + " bytes, more than a seed should hold");
    Files.write(target.resolve(name), concat(header, bytes));
  }

  /** An observer, of grpc-java's client or Triple's, that keeps what arrives and completes when the call ends. */
  private static final class Collect<T> implements StreamObserver<T>, io.triplerpc.StreamObserver<T> {
    final List<T> values = new ArrayList<>();
    final CompletableFuture<List<T>> done = new CompletableFuture<>();
    private final Semaphore arrived = new Semaphore(0);

    @Override
    public synchronized void onNext(T value) {
      values.add(value);
      arrived.release();
    }

    @Override
    public synchronized void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public synchronized void onCompleted() {
      done.complete(List.copyOf(values));
    }

    /** Waits until {@code count} values in all have arrived since the last wait. */
    void awaitCount(int count) throws InterruptedException {
      assertTrue(arrived.tryAcquire(count, SECONDS, TimeUnit.SECONDS), "a response arrived");
    }
  }
}
