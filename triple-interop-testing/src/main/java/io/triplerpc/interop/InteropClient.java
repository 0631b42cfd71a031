package io.triplerpc.interop;

import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.BoolValue;
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
import io.grpc.testing.integration.UnimplementedService;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ClientResponseObserver;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs gRPC's interop test cases with the Triple client against any {@code grpc.testing.TestService}
 * server. Flags: {@code --server_host} (default 127.0.0.1), {@code --server_port} (required),
 * {@code --test_case=NAME|all}, {@code --use_tls=false}. Exits 0 when every case passed.
 */
public final class InteropClient implements AutoCloseable {

  /** The standard cases, in the order gRPC's descriptions list them. */
  public static final List<String> STANDARD_CASES = List.of(
      "empty_unary", "large_unary", "client_compressed_unary", "server_compressed_unary",
      "client_streaming", "client_compressed_streaming", "server_streaming", "server_compressed_streaming",
      "ping_pong", "empty_stream", "cancel_after_begin", "cancel_after_first_response",
      "timeout_on_sleeping_server", "custom_metadata", "status_code_and_message", "special_status_message",
      "unimplemented_method", "unimplemented_service");

  /**
   * Not one of gRPC's cases: 32 MiB each way in 1 MiB messages on one connection, then a unary call
   * on it. The windows grow on both sides, measured with PINGs the peer must not take for abuse.
   */
  public static final String BULK_BOTH_WAYS = "bulk_both_ways";

  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
  private static final String SPECIAL_MESSAGE = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n";

  private final TripleClient client;
  private final TestService service;
  private final Map<String, Case> cases = new LinkedHashMap<>();

  @FunctionalInterface
  private interface Case {
    void run() throws Exception;
  }

  public InteropClient(String host, int port) {
    this.client = TripleClient.builder().address(host, port).build();
    this.service = client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT));
    cases.put("empty_unary", this::emptyUnary);
    cases.put("large_unary", this::largeUnary);
    cases.put("client_compressed_unary", () -> clientCompressedUnary(true));
    cases.put("client_compressed_unary_noprobe", () -> clientCompressedUnary(false));
    cases.put("server_compressed_unary", this::serverCompressedUnary);
    cases.put("client_streaming", this::clientStreaming);
    cases.put("client_compressed_streaming", () -> clientCompressedStreaming(true));
    cases.put("client_compressed_streaming_noprobe", () -> clientCompressedStreaming(false));
    cases.put("server_streaming", this::serverStreaming);
    cases.put("server_compressed_streaming", this::serverCompressedStreaming);
    cases.put("ping_pong", this::pingPong);
    cases.put("empty_stream", this::emptyStream);
    cases.put("cancel_after_begin", this::cancelAfterBegin);
    cases.put("cancel_after_first_response", this::cancelAfterFirstResponse);
    cases.put("timeout_on_sleeping_server", this::timeoutOnSleepingServer);
    cases.put("custom_metadata", this::customMetadata);
    cases.put("status_code_and_message", this::statusCodeAndMessage);
    cases.put("special_status_message", this::specialStatusMessage);
    cases.put("unimplemented_method", this::unimplementedMethod);
    cases.put("unimplemented_service", this::unimplementedService);
    cases.put(BULK_BOTH_WAYS, this::bulkBothWays);
  }

  /** Every case this client knows, probe-less variants included. */
  public List<String> caseNames() {
    return List.copyOf(cases.keySet());
  }

  /**
   * Runs one case.
   *
   * @throws AssertionError naming what differed, or the call's exception
   */
  public void run(String name) throws Exception {
    Case c = cases.get(name);
    if (c == null) {
      throw new IllegalArgumentException("Unknown test case " + name + "; known: " + cases.keySet());
    }
    c.run();
  }

  @Override
  public void close() {
    client.close();
  }

  // The cases, as gRPC's interop test descriptions specify them.

  private void emptyUnary() {
    check(service.emptyCall(Empty.getDefaultInstance()).equals(Empty.getDefaultInstance()), "EmptyCall answered a non-empty message");
  }

  private void largeUnary() {
    SimpleResponse response = service.unaryCall(largeRequest().build());
    checkPayload(response.getPayload(), 314159);
  }

  private static SimpleRequest.Builder largeRequest() {
    return SimpleRequest.newBuilder().setResponseSize(314159).setPayload(TestServiceImpl.payload(271828));
  }

  private void clientCompressedUnary(boolean probe) {
    if (probe) {
      // An uncompressed request that says it is compressed must be refused.
      StatusException e = expectFailure(() -> service.unaryCall(
          largeRequest().setExpectCompressed(BoolValue.newBuilder().setValue(true)).build()));
      checkCode(e, Status.Code.INVALID_ARGUMENT);
    }
    TestService gzip = client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT).withCompression("gzip"));
    checkPayload(gzip.unaryCall(largeRequest().setExpectCompressed(BoolValue.newBuilder().setValue(true)).build())
        .getPayload(), 314159);
    checkPayload(service.unaryCall(largeRequest().setExpectCompressed(BoolValue.newBuilder().setValue(false)).build())
        .getPayload(), 314159);
  }

  private void serverCompressedUnary() {
    for (boolean compressed : new boolean[] {true, false}) {
      SimpleResponse response = service.unaryCall(
          largeRequest().setResponseCompressed(BoolValue.newBuilder().setValue(compressed)).build());
      checkPayload(response.getPayload(), 314159);
    }
  }

  private void clientStreaming() throws Exception {
    Recorder<StreamingInputCallResponse> response = new Recorder<>();
    StreamObserver<StreamingInputCallRequest> requests = service.streamingInputCall(response);
    for (int size : new int[] {27182, 8, 1828, 45904}) {
      requests.onNext(StreamingInputCallRequest.newBuilder().setPayload(TestServiceImpl.payload(size)).build());
    }
    requests.onCompleted();
    check(response.awaitSuccess().get(0).getAggregatedPayloadSize() == 74922, "aggregated size is not 74922");
  }

  private void bulkBothWays() throws Exception {
    int messages = 32;
    int size = 1 << 20;
    Recorder<StreamingInputCallResponse> upload = new Recorder<>();
    StreamObserver<StreamingInputCallRequest> requests = service.streamingInputCall(upload);
    StreamingInputCallRequest chunk = StreamingInputCallRequest.newBuilder().setPayload(TestServiceImpl.payload(size)).build();
    for (int i = 0; i < messages; i++) {
      requests.onNext(chunk);
    }
    requests.onCompleted();
    int uploaded = upload.awaitSuccess().get(0).getAggregatedPayloadSize();
    check(uploaded == messages * size, "the server received " + uploaded + " bytes, expected " + messages * size);

    StreamingOutputCallRequest.Builder download = StreamingOutputCallRequest.newBuilder();
    for (int i = 0; i < messages; i++) {
      download.addResponseParameters(ResponseParameters.newBuilder().setSize(size));
    }
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    service.streamingOutputCall(download.build(), responses);
    List<StreamingOutputCallResponse> received = responses.awaitSuccess();
    check(received.size() == messages, "got " + received.size() + " responses, expected " + messages);
    for (StreamingOutputCallResponse response : received) {
      checkPayload(response.getPayload(), size);
    }
    emptyUnary();
  }

  private void clientCompressedStreaming(boolean probe) throws Exception {
    if (probe) {
      Recorder<StreamingInputCallResponse> refused = new Recorder<>();
      StreamObserver<StreamingInputCallRequest> requests = service.streamingInputCall(refused);
      requests.onNext(StreamingInputCallRequest.newBuilder()
          .setExpectCompressed(BoolValue.newBuilder().setValue(true))
          .setPayload(TestServiceImpl.payload(27182)).build());
      requests.onCompleted();
      checkCode(refused.awaitFailure(), Status.Code.INVALID_ARGUMENT);
    }
    TestService gzip = client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT).withCompression("gzip"));
    Recorder<StreamingInputCallResponse> response = new Recorder<>();
    ClientCallStreamObserver<StreamingInputCallRequest> requests =
        (ClientCallStreamObserver<StreamingInputCallRequest>) gzip.streamingInputCall(response);
    requests.onNext(StreamingInputCallRequest.newBuilder()
        .setExpectCompressed(BoolValue.newBuilder().setValue(true))
        .setPayload(TestServiceImpl.payload(27182)).build());
    requests.setMessageCompression(false);
    requests.onNext(StreamingInputCallRequest.newBuilder()
        .setExpectCompressed(BoolValue.newBuilder().setValue(false))
        .setPayload(TestServiceImpl.payload(45904)).build());
    requests.onCompleted();
    check(response.awaitSuccess().get(0).getAggregatedPayloadSize() == 73086, "aggregated size is not 73086");
  }

  private void serverStreaming() throws Exception {
    int[] sizes = {31415, 9, 2653, 58979};
    StreamingOutputCallRequest.Builder request = StreamingOutputCallRequest.newBuilder();
    for (int size : sizes) {
      request.addResponseParameters(ResponseParameters.newBuilder().setSize(size));
    }
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    service.streamingOutputCall(request.build(), responses);
    List<StreamingOutputCallResponse> received = responses.awaitSuccess();
    check(received.size() == sizes.length, "got " + received.size() + " responses, expected 4");
    for (int i = 0; i < sizes.length; i++) {
      checkPayload(received.get(i).getPayload(), sizes[i]);
    }
  }

  private void serverCompressedStreaming() throws Exception {
    StreamingOutputCallRequest request = StreamingOutputCallRequest.newBuilder()
        .addResponseParameters(ResponseParameters.newBuilder().setSize(31415)
            .setCompressed(BoolValue.newBuilder().setValue(true)))
        .addResponseParameters(ResponseParameters.newBuilder().setSize(92653)
            .setCompressed(BoolValue.newBuilder().setValue(false)))
        .build();
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    service.streamingOutputCall(request, responses);
    List<StreamingOutputCallResponse> received = responses.awaitSuccess();
    check(received.size() == 2, "got " + received.size() + " responses, expected 2");
    checkPayload(received.get(0).getPayload(), 31415);
    checkPayload(received.get(1).getPayload(), 92653);
  }

  private void pingPong() throws Exception {
    int[] requestSizes = {27182, 8, 1828, 45904};
    int[] responseSizes = {31415, 9, 2653, 58979};
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    StreamObserver<StreamingOutputCallRequest> requests = service.fullDuplexCall(responses);
    for (int i = 0; i < requestSizes.length; i++) {
      requests.onNext(StreamingOutputCallRequest.newBuilder()
          .addResponseParameters(ResponseParameters.newBuilder().setSize(responseSizes[i]))
          .setPayload(TestServiceImpl.payload(requestSizes[i])).build());
      // Each answer arrives before the next request goes out.
      checkPayload(responses.next().getPayload(), responseSizes[i]);
    }
    requests.onCompleted();
    check(responses.awaitSuccess().size() == 4, "stream sent more than 4 responses");
  }

  private void emptyStream() throws Exception {
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    StreamObserver<StreamingOutputCallRequest> requests = service.fullDuplexCall(responses);
    requests.onCompleted();
    check(responses.awaitSuccess().isEmpty(), "an empty stream got responses");
  }

  private void cancelAfterBegin() throws Exception {
    Recorder<StreamingInputCallResponse> response = new Recorder<>();
    ClientCallStreamObserver<StreamingInputCallRequest> requests =
        (ClientCallStreamObserver<StreamingInputCallRequest>) service.streamingInputCall(response);
    requests.cancel("cancel_after_begin", null);
    checkCode(response.awaitFailure(), Status.Code.CANCELLED);
  }

  private void cancelAfterFirstResponse() throws Exception {
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    ClientCallStreamObserver<StreamingOutputCallRequest> requests =
        (ClientCallStreamObserver<StreamingOutputCallRequest>) service.fullDuplexCall(responses);
    requests.onNext(StreamingOutputCallRequest.newBuilder()
        .addResponseParameters(ResponseParameters.newBuilder().setSize(31415))
        .setPayload(TestServiceImpl.payload(27182)).build());
    checkPayload(responses.next().getPayload(), 31415);
    requests.cancel("cancel_after_first_response", null);
    checkCode(responses.awaitFailure(), Status.Code.CANCELLED);
  }

  private void timeoutOnSleepingServer() throws Exception {
    TestService impatient = client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(1)));
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    StreamObserver<StreamingOutputCallRequest> requests = impatient.fullDuplexCall(responses);
    try {
      requests.onNext(StreamingOutputCallRequest.newBuilder().setPayload(TestServiceImpl.payload(27182)).build());
    } catch (RuntimeException e) {
      // The deadline may pass before the request goes out; the outcome below is what counts.
    }
    checkCode(responses.awaitFailure(), Status.Code.DEADLINE_EXCEEDED);
  }

  private void customMetadata() throws Exception {
    byte[] trailing = {(byte) 0xab, (byte) 0xab, (byte) 0xab};

    Captured unary = new Captured();
    TestService unaryStub = client.proxy(TestService.class,
        CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT).withInterceptors(unary.sending(trailing)));
    checkPayload(unaryStub.unaryCall(largeRequest().build()).getPayload(), 314159);
    unary.checkEchoed(trailing);

    Captured stream = new Captured();
    TestService streamStub = client.proxy(TestService.class,
        CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT).withInterceptors(stream.sending(trailing)));
    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    StreamObserver<StreamingOutputCallRequest> requests = streamStub.fullDuplexCall(responses);
    requests.onNext(StreamingOutputCallRequest.newBuilder()
        .addResponseParameters(ResponseParameters.newBuilder().setSize(314159))
        .setPayload(TestServiceImpl.payload(271828)).build());
    requests.onCompleted();
    checkPayload(responses.awaitSuccess().get(0).getPayload(), 314159);
    stream.checkEchoed(trailing);
  }

  /** Sends the two echo headers on one call and keeps the response headers and trailers it got. */
  private static final class Captured {
    volatile Metadata headers;
    volatile Metadata trailers;

    ClientInterceptor sending(byte[] trailing) {
      return new ClientInterceptor() {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(
            MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
          return new ForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata requestHeaders) {
              requestHeaders.put(EchoMetadataInterceptor.ECHO_INITIAL, "test_initial_metadata_value");
              requestHeaders.put(EchoMetadataInterceptor.ECHO_TRAILING, trailing);
              super.start(new ForwardingClientCallListener<>(listener) {
                @Override
                public void onHeaders(Metadata responseHeaders) {
                  headers = responseHeaders;
                  super.onHeaders(responseHeaders);
                }

                @Override
                public void onClose(Status status, Metadata responseTrailers) {
                  trailers = responseTrailers;
                  super.onClose(status, responseTrailers);
                }
              }, requestHeaders);
            }
          };
        }
      };
    }

    void checkEchoed(byte[] trailing) {
      check(headers != null && "test_initial_metadata_value".equals(headers.get(EchoMetadataInterceptor.ECHO_INITIAL)),
          "response headers lack the echoed x-grpc-test-echo-initial: " + headers);
      check(trailers != null && Arrays.equals(trailing, trailers.getBinary(EchoMetadataInterceptor.ECHO_TRAILING)),
          "trailers lack the echoed x-grpc-test-echo-trailing-bin: " + trailers);
    }
  }

  private void statusCodeAndMessage() throws Exception {
    EchoStatus echo = EchoStatus.newBuilder().setCode(2).setMessage("test status message").build();
    StatusException unary = expectFailure(() -> service.unaryCall(SimpleRequest.newBuilder().setResponseStatus(echo).build()));
    checkStatus(unary, Status.Code.UNKNOWN, "test status message");

    Recorder<StreamingOutputCallResponse> responses = new Recorder<>();
    StreamObserver<StreamingOutputCallRequest> requests = service.fullDuplexCall(responses);
    requests.onNext(StreamingOutputCallRequest.newBuilder().setResponseStatus(echo).build());
    requests.onCompleted();
    checkStatus(responses.awaitFailure(), Status.Code.UNKNOWN, "test status message");
  }

  private void specialStatusMessage() {
    EchoStatus echo = EchoStatus.newBuilder().setCode(2).setMessage(SPECIAL_MESSAGE).build();
    StatusException e = expectFailure(() -> service.unaryCall(SimpleRequest.newBuilder().setResponseStatus(echo).build()));
    checkStatus(e, Status.Code.UNKNOWN, SPECIAL_MESSAGE);
  }

  private void unimplementedMethod() {
    checkCode(expectFailure(() -> service.unimplementedCall(Empty.getDefaultInstance())), Status.Code.UNIMPLEMENTED);
  }

  private void unimplementedService() {
    UnimplementedService stub = client.proxy(UnimplementedService.class, CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT));
    checkCode(expectFailure(() -> stub.unimplementedCall(Empty.getDefaultInstance())), Status.Code.UNIMPLEMENTED);
  }

  // Checks.

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }

  private static void checkPayload(Payload payload, int size) {
    check(payload.getBody().size() == size, "payload of " + payload.getBody().size() + " bytes, expected " + size);
    for (int i = 0; i < size; i++) {
      if (payload.getBody().byteAt(i) != 0) {
        throw new AssertionError("payload byte " + i + " is not zero");
      }
    }
  }

  private static void checkCode(StatusException e, Status.Code code) {
    check(e.status().code() == code, "expected " + code + ", got " + e.status());
  }

  private static void checkStatus(StatusException e, Status.Code code, String message) {
    checkCode(e, code);
    check(message.equals(e.status().description()),
        "expected message '" + message + "', got '" + e.status().description() + "'");
  }

  private static StatusException expectFailure(Runnable call) {
    try {
      call.run();
    } catch (StatusException e) {
      return e;
    }
    throw new AssertionError("the call succeeded; it was expected to fail");
  }

  /** Collects a response stream. */
  private static final class Recorder<T> implements ClientResponseObserver<Object, T> {
    private final BlockingQueue<T> unread = new LinkedBlockingQueue<>();
    private final List<T> all = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    @Override
    public void beforeStart(ClientCallStreamObserver<Object> requestStream) {}

    @Override
    public void onNext(T value) {
      all.add(value);
      unread.add(value);
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(null);
    }

    T next() throws InterruptedException {
      T value = unread.poll(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      check(value != null, "no response within " + CALL_TIMEOUT);
      return value;
    }

    List<T> awaitSuccess() throws Exception {
      try {
        done.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        throw new AssertionError("the call failed: " + e.getCause(), e.getCause());
      }
      return all;
    }

    StatusException awaitFailure() throws Exception {
      try {
        done.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof StatusException) {
          return (StatusException) e.getCause();
        }
        throw new AssertionError("the call failed with a non-status error", e.getCause());
      }
      throw new AssertionError("the call succeeded; it was expected to fail");
    }
  }

  public static void main(String[] args) {
    String testCase;
    InteropClient client;
    try {
      Flags flags = new Flags(args);
      flags.rejectTls();
      testCase = flags.get("test_case", "large_unary");
      client = new InteropClient(flags.get("server_host", "127.0.0.1"), Integer.parseInt(flags.require("server_port")));
    } catch (IllegalArgumentException e) {
      System.err.println("interop-client: " + e.getMessage());
      System.err.println("usage: interop-client.sh --server_host=H --server_port=N --test_case=NAME|all [--use_tls=false]");
      System.exit(2);
      return;
    }
    List<String> toRun = testCase.equals("all") ? STANDARD_CASES : List.of(testCase);
    int failed = 0;
    try (client) {
      for (String name : toRun) {
        try {
          client.run(name);
          System.out.println("PASS " + name);
        } catch (Throwable t) {
          failed++;
          System.out.println("FAIL " + name + ": " + t);
        }
      }
    }
    System.out.println((toRun.size() - failed) + "/" + toRun.size() + " passed");
    System.exit(failed == 0 ? 0 : 1);
  }
}
