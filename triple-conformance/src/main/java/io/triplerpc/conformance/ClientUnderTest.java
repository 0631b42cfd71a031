package io.triplerpc.conformance;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import connectrpc.conformance.v1.ClientCompat.ClientCompatRequest;
import connectrpc.conformance.v1.ClientCompat.ClientCompatResponse;
import connectrpc.conformance.v1.ClientCompat.ClientErrorResult;
import connectrpc.conformance.v1.ClientCompat.ClientResponseResult;
import connectrpc.conformance.v1.ConfigOuterClass.Compression;
import connectrpc.conformance.v1.ConfigOuterClass.StreamType;
import connectrpc.conformance.v1.Service.BidiStreamRequest;
import connectrpc.conformance.v1.Service.BidiStreamResponse;
import connectrpc.conformance.v1.Service.ClientStreamRequest;
import connectrpc.conformance.v1.Service.ClientStreamResponse;
import connectrpc.conformance.v1.Service.ConformancePayload;
import connectrpc.conformance.v1.Service.Error;
import connectrpc.conformance.v1.Service.Header;
import connectrpc.conformance.v1.Service.IdempotentUnaryRequest;
import connectrpc.conformance.v1.Service.ServerStreamRequest;
import connectrpc.conformance.v1.Service.ServerStreamResponse;
import connectrpc.conformance.v1.Service.UnaryRequest;
import connectrpc.conformance.v1.Service.UnimplementedRequest;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ClientProtocol;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.internal.wire.ConnectWire;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The client under test that {@code connectconformance --mode client} starts: it reads
 * {@code ClientCompatRequest}s from stdin (each a 4-byte big-endian length, then the message) until
 * EOF, makes each call with a {@link TripleClient} through its {@link ClientCall} API (headers,
 * request messages with their delays, cancellation at the asked moment, timeouts, compression), in the
 * protocol, codec and HTTP version it names, idempotent calls as GET when it asks for them, and
 * writes a {@code ClientCompatResponse} for each to stdout, in the order the calls end.
 */
public final class ClientUnderTest {

  private static final String SERVICE = "connectrpc.conformance.v1.ConformanceService";
  /** Calls in flight at most. */
  private static final int PARALLEL = 8;

  /** One client per server and settings, shared by the calls that name them. */
  private final Map<String, TripleClient> clients = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "conformance-client-timers");
    thread.setDaemon(true);
    return thread;
  });
  private final OutputStream out;

  private ClientUnderTest(OutputStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    ClientUnderTest client = new ClientUnderTest(System.out);
    // At most PARALLEL calls at once, as the runner's server mode issues them (its --parallel): the runner
    // sends every case at once, and thousands of calls started together on a two-core machine would
    // push the cases that check deadlines past theirs.
    ExecutorService calls = Executors.newFixedThreadPool(PARALLEL);
    InputStream in = System.in;
    while (true) {
      byte[] frame;
      try {
        frame = ServerUnderTest.readFrame(in);
      } catch (java.io.EOFException e) {
        break;
      }
      ClientCompatRequest request = ClientCompatRequest.parseFrom(frame);
      calls.execute(() -> client.answer(request));
    }
    calls.shutdown();
    calls.awaitTermination(10, TimeUnit.MINUTES);
    client.clients.values().forEach(TripleClient::close);
  }

  private void answer(ClientCompatRequest request) {
    ClientCompatResponse.Builder response = ClientCompatResponse.newBuilder().setTestName(request.getTestName());
    try {
      response.setResponse(call(request));
    } catch (Exception | AssertionError e) {
      response.setError(ClientErrorResult.newBuilder().setMessage(e.toString()));
    }
    synchronized (out) {
      try {
        ServerUnderTest.writeFrame(out, response.build().toByteArray());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  private TripleClient client(ClientCompatRequest request) {
    ClientProtocol protocol;
    switch (request.getProtocol()) {
      case PROTOCOL_GRPC:
        protocol = ClientProtocol.GRPC;
        break;
      case PROTOCOL_GRPC_WEB:
        protocol = ClientProtocol.GRPC_WEB;
        break;
      case PROTOCOL_CONNECT:
        protocol = ClientProtocol.CONNECT;
        break;
      default:
        throw new IllegalArgumentException("Triple's client does not speak " + request.getProtocol());
    }
    String codec;
    switch (request.getCodec()) {
      case CODEC_PROTO:
        codec = "proto";
        break;
      case CODEC_JSON:
        codec = "json";
        break;
      default:
        throw new IllegalArgumentException("Triple's client does not speak " + request.getCodec());
    }
    boolean http1 = false;
    boolean http3 = false;
    switch (request.getHttpVersion()) {
      case HTTP_VERSION_1:
        http1 = true;
        break;
      case HTTP_VERSION_2:
        break;
      case HTTP_VERSION_3:
        // Always with TLS: the runner's reference server speaks HTTP/3 only over it.
        http3 = true;
        break;
      default:
        throw new IllegalArgumentException("Triple's client does not speak " + request.getHttpVersion());
    }
    boolean get = request.getUseGetHttpMethod();
    boolean overHttp1 = http1;
    boolean overHttp3 = http3;
    String key = protocol + "/" + codec + "/" + request.getHttpVersion() + "/" + get + "/" + request.getHost() + ":"
        + request.getPort()
        + "/" + request.getServerTlsCert().hashCode() + "/" + request.getClientTlsCreds().hashCode() + "/"
        + request.getMessageReceiveLimit();
    return clients.computeIfAbsent(key, k -> {
      TripleClient.Builder builder = TripleClient.builder().address(request.getHost(), request.getPort())
          .protocol(protocol).codec(codec).http1(overHttp1).connectGet(get);
      if (overHttp3) {
        builder.http3();
      }
      if (request.getMessageReceiveLimit() > 0) {
        builder.maxInboundMessageSize(request.getMessageReceiveLimit());
      }
      if (!request.getServerTlsCert().isEmpty()) {
        try {
          Path certificate = Files.createTempFile("conformance-server", ".pem");
          certificate.toFile().deleteOnExit();
          Files.write(certificate, request.getServerTlsCert().toByteArray());
          TlsConfig.Builder tls = TlsConfig.builder().trustCertificates(certificate);
          if (request.hasClientTlsCreds()) {
            Path clientCertificate = Files.createTempFile("conformance-client", ".pem");
            Path clientKey = Files.createTempFile("conformance-client", ".key");
            clientCertificate.toFile().deleteOnExit();
            clientKey.toFile().deleteOnExit();
            Files.write(clientCertificate, request.getClientTlsCreds().getCert().toByteArray());
            Files.write(clientKey, RunnerKeys.toPkcs8Pem(request.getClientTlsCreds().getKey().toByteArray()));
            tls.keyCertChain(clientCertificate, clientKey);
          }
          builder.tls(tls.build());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      return builder.build();
    });
  }

  /**
   * Makes the call the request describes through the service's proxy, as an application would; a
   * {@link Capture} interceptor adds the request headers, keeps the response headers and trailers, and
   * holds the call so that it can be cancelled at the moment the request asks for.
   */
  private ClientResponseResult call(ClientCompatRequest request) throws Exception {
    if (!SERVICE.equals(request.getService())) {
      throw new IllegalArgumentException("Unknown service " + request.getService());
    }
    CallOptions options = CallOptions.DEFAULT;
    if (request.hasTimeoutMs()) {
      options = options.withTimeout(Duration.ofMillis(request.getTimeoutMs()));
    }
    if (request.getCompression() == Compression.COMPRESSION_GZIP) {
      options = options.withCompression("gzip");
    }
    Capture capture = new Capture(requestHeaders(request));
    ConformanceService service = client(request).proxy(ConformanceService.class, options.withInterceptors(capture));
    Outcome outcome = new Outcome(capture, request.getCancel());
    List<Any> messages = request.getRequestMessagesList();
    switch (request.getMethod()) {
      case "Unary":
        outcome.unary(() -> service.unary(messages.get(0).unpack(UnaryRequest.class)).getPayload());
        break;
      case "IdempotentUnary":
        outcome.unary(() -> service.idempotentUnary(messages.get(0).unpack(IdempotentUnaryRequest.class)).getPayload());
        break;
      case "Unimplemented":
        outcome.unary(() -> {
          service.unimplemented(messages.get(0).unpack(UnimplementedRequest.class));
          return null;
        });
        break;
      case "ServerStream":
        outcome.afterCloseSend();
        service.serverStream(messages.get(0).unpack(ServerStreamRequest.class),
            outcome.responses(ServerStreamResponse::getPayload));
        break;
      case "ClientStream":
        outcome.send(service.clientStream(outcome.responses(ClientStreamResponse::getPayload)),
            messages, ClientStreamRequest.class, request.getRequestDelayMs(), false);
        break;
      case "BidiStream":
        outcome.send(service.bidiStream(outcome.responses(BidiStreamResponse::getPayload)), messages,
            BidiStreamRequest.class, request.getRequestDelayMs(),
            request.getStreamType() == StreamType.STREAM_TYPE_FULL_DUPLEX_BIDI_STREAM);
        break;
      default:
        throw new IllegalArgumentException("Unknown method " + request.getMethod());
    }
    outcome.awaitEnd();
    ClientResponseResult.Builder result = ClientResponseResult.newBuilder()
        .addAllResponseHeaders(headersOf(capture.responseHeaders))
        .addAllPayloads(outcome.payloads)
        .addAllResponseTrailers(headersOf(outcome.trailers != null ? outcome.trailers : capture.trailers))
        .setNumUnsentRequests(outcome.unsent);
    Status status = outcome.status;
    if (!status.isOk()) {
      Error.Builder error = Error.newBuilder().setCodeValue(status.code().value()).addAllDetails(status.details());
      if (status.description() != null) {
        error.setMessage(status.description());
      }
      result.setError(error);
    }
    return result.build();
  }

  private static Metadata requestHeaders(ClientCompatRequest request) {
    Metadata headers = new Metadata();
    for (Header header : request.getRequestHeadersList()) {
      for (String value : header.getValueList()) {
        if (Metadata.isBinaryKey(header.getName())) {
          headers.put(header.getName(), Base64.getDecoder().decode(value));
        } else {
          headers.put(header.getName(), value);
        }
      }
    }
    return headers;
  }

  /** Adds the request headers, keeps the response's, and holds the call for cancelling. */
  private static final class Capture implements ClientInterceptor {

    private final Metadata requestHeaders;
    /** The call once started; guarded by this. */
    private ClientCall<?, ?> call;
    /** Why the call is to be cancelled as soon as it starts; guarded by this. */
    private String cancelled;
    private volatile Metadata responseHeaders;
    private volatile Metadata trailers;

    Capture(Metadata requestHeaders) {
      this.requestHeaders = requestHeaders;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
      ClientCall<Q, R> intercepted = new ForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          headers.merge(requestHeaders);
          super.start(new ForwardingClientCallListener<>(listener) {
            @Override
            public void onHeaders(Metadata headers) {
              responseHeaders = headers;
              super.onHeaders(headers);
            }

            @Override
            public void onClose(Status status, Metadata closeTrailers) {
              trailers = closeTrailers;
              super.onClose(status, closeTrailers);
            }
          }, headers);
          started(this);
        }
      };
      return intercepted;
    }

    private void started(ClientCall<?, ?> started) {
      String why;
      synchronized (this) {
        call = started;
        why = cancelled;
      }
      if (why != null) {
        started.cancel(why, null);
      }
    }

    /** Cancels the call, now or as soon as it starts. */
    void cancel(String why) {
      ClientCall<?, ?> started;
      synchronized (this) {
        started = call;
        cancelled = why;
      }
      if (started != null) {
        started.cancel(why, null);
      }
    }
  }

  /** A call's progress and outcome, as the proxy reports it. */
  private final class Outcome {

    private final Capture capture;
    private final ClientCompatRequest.Cancel cancel;
    private final List<ConformancePayload> payloads = java.util.Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    /** Responses as they arrive, for full duplex's one-for-one. */
    private final LinkedBlockingQueue<Boolean> arrivals = new LinkedBlockingQueue<>();
    private volatile Status status = Status.OK;
    private volatile Metadata trailers;
    private int unsent;

    Outcome(Capture capture, ClientCompatRequest.Cancel cancel) {
      this.capture = capture;
      this.cancel = cancel;
    }

    void unary(java.util.concurrent.Callable<ConformancePayload> call) {
      afterCloseSend();
      try {
        ConformancePayload payload = call.call();
        if (payload != null) {
          payloads.add(payload);
        }
      } catch (StatusException e) {
        status = e.status();
        trailers = e.trailers();
      } catch (Exception e) {
        status = Status.fromThrowable(e);
      }
      ended.complete(null);
    }

    /** Schedules the cancel a request asks for some time after its close. */
    void afterCloseSend() {
      if (cancel.getCancelTimingCase() == ClientCompatRequest.Cancel.CancelTimingCase.AFTER_CLOSE_SEND_MS) {
        timers.schedule(() -> capture.cancel("Cancelled by the test after the close of the request"),
            cancel.getAfterCloseSendMs(), TimeUnit.MILLISECONDS);
      }
    }

    <R> StreamObserver<R> responses(java.util.function.Function<R, ConformancePayload> payload) {
      return new StreamObserver<>() {
        @Override
        public void onNext(R value) {
          payloads.add(payload.apply(value));
          if (cancel.getCancelTimingCase() == ClientCompatRequest.Cancel.CancelTimingCase.AFTER_NUM_RESPONSES
              && payloads.size() == cancel.getAfterNumResponses()) {
            capture.cancel("Cancelled by the test after " + payloads.size() + " responses");
          }
          arrivals.add(Boolean.TRUE);
        }

        @Override
        public void onError(Throwable t) {
          status = Status.fromThrowable(t);
          if (t instanceof StatusException) {
            trailers = ((StatusException) t).trailers();
          }
          arrivals.add(Boolean.FALSE);
          ended.complete(null);
        }

        @Override
        public void onCompleted() {
          arrivals.add(Boolean.FALSE);
          ended.complete(null);
        }
      };
    }

    <Q extends Message> void send(StreamObserver<Q> requests, List<Any> messages, Class<Q> type, int delayMillis,
        boolean fullDuplex) throws Exception {
      for (int i = 0; i < messages.size(); i++) {
        if (delayMillis > 0) {
          Thread.sleep(delayMillis);
        }
        if (ended.isDone()) {
          unsent = messages.size() - i;
          break;
        }
        requests.onNext(messages.get(i).unpack(type));
        if (fullDuplex && !arrivals.take()) {
          unsent = messages.size() - i - 1;
          break;
        }
      }
      if (cancel.getCancelTimingCase() == ClientCompatRequest.Cancel.CancelTimingCase.BEFORE_CLOSE_SEND) {
        capture.cancel("Cancelled by the test before the close of the request");
        return;
      }
      requests.onCompleted();
      afterCloseSend();
    }

    void awaitEnd() throws Exception {
      ended.get(10, TimeUnit.MINUTES);
    }
  }

  private static List<Header> headersOf(Metadata metadata) {
    List<Header> headers = new ArrayList<>();
    if (metadata == null) {
      return headers;
    }
    ConnectWire.textValues(metadata).forEach((name, values) ->
        headers.add(Header.newBuilder().setName(name).addAllValue(values).build()));
    return headers;
  }
}
