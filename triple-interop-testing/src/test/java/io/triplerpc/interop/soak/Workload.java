package io.triplerpc.interop.soak;

import com.google.protobuf.ByteString;
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
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.ClientProtocol;
import io.triplerpc.ClientResponseObserver;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The soak run's load: calls of every kind, at a steady rate whatever the server's answers take (open
 * loop: each call starts at its planned time, and its latency counts from then), spread over four
 * clients, one per wire: gRPC, gRPC-Web and Connect over HTTP/2, and Connect over HTTP/1.1. Every
 * {@code reconnectEvery} one of them is replaced by a new client (a new connection); the old one is
 * closed once its calls have had time to end.
 *
 * <p>Each call knows its outcome in advance: OK with answers of the sizes asked for, the status it asked
 * the server for (with its message), CANCELLED for calls it cancels after their first response, and
 * DEADLINE_EXCEEDED for calls whose deadline ends before the server's first response. Anything else is
 * unexpected. Latency is recorded for the calls that end OK.
 */
final class Workload implements AutoCloseable {

  /** The deadline of every call but those meant to expire. */
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
  /** The deadline of the calls meant to expire; the server answers them after {@link #SLOW_RESPONSE_US}. */
  private static final Duration SHORT_TIMEOUT = Duration.ofMillis(50);
  private static final int SLOW_RESPONSE_US = 500_000;
  /** An old client is closed this long after it was replaced: longer than any call lasts. */
  private static final long CLOSE_GRACE_SECONDS = CALL_TIMEOUT.toSeconds() + 5;
  private static final int SMALL = 1024;
  /** The statuses the workload asks for: none of them is one a transport or a client makes up. */
  private static final List<Status.Code> ASKED = List.of(Status.Code.NOT_FOUND, Status.Code.ALREADY_EXISTS,
      Status.Code.PERMISSION_DENIED, Status.Code.FAILED_PRECONDITION, Status.Code.ABORTED, Status.Code.OUT_OF_RANGE,
      Status.Code.DATA_LOSS);

  /** The kinds of call, each with its share of the calls (out of 100). */
  enum Kind {
    EMPTY_UNARY(8), UNARY(34), LARGE_UNARY(2), UNARY_ERROR(6), SERVER_STREAM(12), SERVER_STREAM_ERROR(3),
    CLIENT_STREAM(12), BIDI(12), BIDI_ERROR(3), CANCEL(4), DEADLINE(4);

    final int weight;

    Kind(int weight) {
      this.weight = weight;
    }
  }

  /** A client for one wire; replaced as a whole. */
  private record Lane(Wire wire, TripleClient client, TestService service, TestService impatient) {}

  private record Wire(String name, ClientProtocol protocol, boolean http1) {}

  private static final List<Wire> WIRES = List.of(new Wire("grpc", ClientProtocol.GRPC, false),
      new Wire("grpc-web", ClientProtocol.GRPC_WEB, false), new Wire("connect", ClientProtocol.CONNECT, false),
      new Wire("connect-http1", ClientProtocol.CONNECT, true));

  private final String host;
  private final int port;
  private final double rate;
  private final int largeSize;
  private final Payload smallPayload;
  private final Payload largePayload;
  private final List<AtomicReference<Lane>> lanes = new ArrayList<>();
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
    Thread thread = new Thread(r, "soak-workload");
    thread.setDaemon(true);
    return thread;
  });
  private final Kind[] deck = new Kind[100];
  private final SplittableRandom random = new SplittableRandom(36);

  private final Recorder latencyMicros = new Recorder(3);
  private final LongAdder completed = new LongAdder();
  private final Map<String, LongAdder> asked = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> unexpected = new ConcurrentHashMap<>();
  /** The first unexpected outcomes, described, for the log. */
  private final ConcurrentLinkedQueue<String> unexpectedExamples = new ConcurrentLinkedQueue<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger reconnects = new AtomicInteger();
  /** Replaced clients not closed yet. */
  private final Set<TripleClient> replaced = ConcurrentHashMap.newKeySet();

  private long startNanos;
  /** Calls started so far; only the ticker thread touches it. */
  private long issued;
  private volatile boolean stopped;
  /** Completed when no call is in flight; replaced by each wait. */
  private volatile CompletableFuture<Void> idle;

  Workload(String host, int port, double rate, int largeSize) {
    this.host = host;
    this.port = port;
    this.rate = rate;
    this.largeSize = largeSize;
    this.smallPayload = payload(SMALL);
    this.largePayload = payload(largeSize);
    int i = 0;
    for (Kind kind : Kind.values()) {
      for (int n = 0; n < kind.weight; n++) {
        deck[i++] = kind;
      }
    }
    if (i != deck.length) {
      throw new AssertionError("The kinds' weights add up to " + i + ", not 100");
    }
    for (Wire wire : WIRES) {
      lanes.add(new AtomicReference<>(newLane(wire)));
    }
  }

  private Lane newLane(Wire wire) {
    TripleClient client = TripleClient.builder().address(host, port).protocol(wire.protocol()).http1(wire.http1())
        .build();
    return new Lane(wire, client, client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(CALL_TIMEOUT)),
        client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(SHORT_TIMEOUT)));
  }

  /** Starts the calls, and replaces a client every {@code reconnectEvery}. */
  void start(Duration reconnectEvery) {
    startNanos = System.nanoTime();
    timer.scheduleAtFixedRate(this::tick, 0, 5, TimeUnit.MILLISECONDS);
    long every = reconnectEvery.toMillis();
    timer.scheduleAtFixedRate(this::reconnect, every, every, TimeUnit.MILLISECONDS);
  }

  /** Starts no more calls; those in flight go on, and the future completes once none is left. */
  CompletableFuture<Void> stop() {
    stopped = true;
    return awaitIdle();
  }

  /** Calls in flight now. */
  int inFlight() {
    return inFlight.get();
  }

  int reconnects() {
    return reconnects.get();
  }

  /** Unexpected outcomes, described (the first 20). */
  List<String> unexpectedExamples() {
    return List.copyOf(unexpectedExamples);
  }

  /** What happened since the last snapshot. */
  record Snapshot(long completed, Histogram latencyMicros, Map<String, Long> asked, Map<String, Long> unexpected,
      int inFlight) {}

  private long lastCompleted;
  private final Map<String, Long> lastAsked = new TreeMap<>();
  private final Map<String, Long> lastUnexpected = new TreeMap<>();

  /** The calls ended since the previous snapshot; called by one thread at a time. */
  synchronized Snapshot snapshot() {
    long done = completed.sum();
    Snapshot snapshot = new Snapshot(done - lastCompleted, latencyMicros.getIntervalHistogram(),
        delta(asked, lastAsked), delta(unexpected, lastUnexpected), inFlight.get());
    lastCompleted = done;
    return snapshot;
  }

  private static Map<String, Long> delta(Map<String, LongAdder> counters, Map<String, Long> last) {
    Map<String, Long> delta = new TreeMap<>();
    counters.forEach((code, adder) -> {
      long now = adder.sum();
      long change = now - last.getOrDefault(code, 0L);
      if (change != 0) {
        delta.put(code, change);
      }
      last.put(code, now);
    });
    return delta;
  }

  private void tick() {
    if (stopped) {
      return;
    }
    try {
      long due = (long) ((System.nanoTime() - startNanos) * rate / 1e9);
      while (issued < due) {
        long planned = startNanos + (long) (issued * 1e9 / rate);
        issued++;
        Kind kind = deck[random.nextInt(deck.length)];
        start(kind, lanes.get(random.nextInt(lanes.size())).get(), planned);
      }
    } catch (Throwable t) {
      // A scheduled task that throws is never run again: the load would stop without a word.
      unexpected.computeIfAbsent("DRIVER_ERROR", k -> new LongAdder()).increment();
      note("driver error: " + t);
    }
  }

  /**
   * Makes one call of each kind on each wire and waits for them, so that the measured load does not
   * begin with the classes loading and the connections opening; the outcomes count as any other.
   */
  CompletableFuture<Void> prime() {
    for (AtomicReference<Lane> lane : lanes) {
      for (Kind kind : Kind.values()) {
        start(kind, lane.get(), System.nanoTime());
      }
    }
    return awaitIdle();
  }

  private void start(Kind kind, Lane lane, long planned) {
    EchoStatus asked = switch (kind) {
      case UNARY_ERROR, SERVER_STREAM_ERROR, BIDI_ERROR -> askedStatus();
      default -> null;
    };
    Call call = new Call(kind, lane.wire().name(), planned, asked);
    inFlight.incrementAndGet();
    try {
      call(call, lane);
    } catch (RuntimeException e) {
      end(call, e, true);
    }
  }

  private void reconnect() {
    int n = reconnects.getAndIncrement();
    AtomicReference<Lane> slot = lanes.get(n % lanes.size());
    Lane old = slot.getAndSet(newLane(WIRES.get(n % WIRES.size())));
    replaced.add(old.client());
    timer.schedule(() -> {
      old.client().close();
      replaced.remove(old.client());
    }, CLOSE_GRACE_SECONDS, TimeUnit.SECONDS);
  }

  /** One call: its kind, the wire it goes over, when it was planned to start, and the status it asks for. */
  private record Call(Kind kind, String wire, long planned, EchoStatus asked) {}

  private void call(Call call, Lane lane) {
    switch (call.kind()) {
      case EMPTY_UNARY -> lane.service().emptyCallAsync(Empty.getDefaultInstance())
          .whenComplete((response, error) -> end(call, error, response != null));
      case UNARY, UNARY_ERROR -> unary(call, lane, SMALL, smallPayload);
      case LARGE_UNARY -> unary(call, lane, largeSize, largePayload);
      case SERVER_STREAM, SERVER_STREAM_ERROR -> serverStream(call, lane.service(), 5, 0, Integer.MAX_VALUE);
      case CANCEL -> serverStream(call, lane.service(), 3, 200_000, 1);
      case DEADLINE -> serverStream(call, lane.impatient(), 1, SLOW_RESPONSE_US, Integer.MAX_VALUE);
      case CLIENT_STREAM -> clientStream(call, lane);
      case BIDI, BIDI_ERROR -> bidi(call, lane);
      default -> throw new AssertionError(call.kind());
    }
  }

  private EchoStatus askedStatus() {
    Status.Code code = ASKED.get(random.nextInt(ASKED.size()));
    return EchoStatus.newBuilder().setCode(code.value()).setMessage("soak asked for " + code).build();
  }

  private void unary(Call call, Lane lane, int size, Payload payload) {
    SimpleRequest.Builder request = SimpleRequest.newBuilder().setResponseSize(size).setPayload(payload);
    if (call.asked() != null) {
      request.setResponseStatus(call.asked());
    }
    lane.service().unaryCallAsync(request.build()).whenComplete((SimpleResponse response, Throwable error) ->
        end(call, error, response != null && response.getPayload().getBody().size() == size));
  }

  /**
   * A server streaming call of {@code count} responses of {@link #SMALL} bytes, the first and each next
   * one after {@code intervalUs}, ending with the call's asked status; cancelled after {@code cancelAfter}
   * responses.
   */
  private void serverStream(Call call, TestService service, int count, int intervalUs, int cancelAfter) {
    StreamingOutputCallRequest.Builder request = StreamingOutputCallRequest.newBuilder();
    for (int i = 0; i < count; i++) {
      request.addResponseParameters(ResponseParameters.newBuilder().setSize(SMALL).setIntervalUs(intervalUs));
    }
    if (call.asked() != null) {
      request.setResponseStatus(call.asked());
    }
    service.streamingOutputCall(request.build(),
        new Responses<StreamingOutputCallRequest, StreamingOutputCallResponse>(call, count) {
          private ClientCallStreamObserver<StreamingOutputCallRequest> requests;

          @Override
          public void beforeStart(ClientCallStreamObserver<StreamingOutputCallRequest> requestStream) {
            requests = requestStream;
          }

          @Override
          boolean good(StreamingOutputCallResponse response) {
            return response.getPayload().getBody().size() == SMALL;
          }

          @Override
          void afterGood(int received) {
            if (received == cancelAfter) {
              requests.cancel("soak cancels after the first response", null);
            }
          }
        });
  }

  private void clientStream(Call call, Lane lane) {
    int count = 5;
    StreamObserver<StreamingInputCallRequest> requests = lane.service().streamingInputCall(
        new Responses<StreamingInputCallRequest, StreamingInputCallResponse>(call, 1) {
          @Override
          boolean good(StreamingInputCallResponse response) {
            return response.getAggregatedPayloadSize() == count * SMALL;
          }
        });
    for (int i = 0; i < count; i++) {
      requests.onNext(StreamingInputCallRequest.newBuilder().setPayload(smallPayload).build());
    }
    requests.onCompleted();
  }

  private void bidi(Call call, Lane lane) {
    int count = call.asked() == null ? 3 : 0;
    StreamObserver<StreamingOutputCallRequest> requests = lane.service().fullDuplexCall(
        new Responses<StreamingOutputCallRequest, StreamingOutputCallResponse>(call, count) {
          @Override
          boolean good(StreamingOutputCallResponse response) {
            return response.getPayload().getBody().size() == SMALL;
          }
        });
    if (call.asked() != null) {
      requests.onNext(StreamingOutputCallRequest.newBuilder().setResponseStatus(call.asked()).build());
    } else {
      for (int i = 0; i < count; i++) {
        requests.onNext(StreamingOutputCallRequest.newBuilder().setPayload(smallPayload)
            .addResponseParameters(ResponseParameters.newBuilder().setSize(SMALL)).build());
      }
    }
    // Half-closes in both cases: over HTTP/1.1 the server sees the request body end only then.
    requests.onCompleted();
  }

  /** Counts a streaming call's responses and ends the call when it ends. */
  private abstract class Responses<Q, R> implements ClientResponseObserver<Q, R> {
    private final Call call;
    private final int expected;
    private int received;
    private boolean allGood = true;

    Responses(Call call, int expected) {
      this.call = call;
      this.expected = expected;
    }

    abstract boolean good(R response);

    void afterGood(int received) {}

    @Override
    public void beforeStart(ClientCallStreamObserver<Q> requestStream) {}

    @Override
    public void onNext(R value) {
      received++;
      if (good(value)) {
        afterGood(received);
      } else {
        allGood = false;
      }
    }

    @Override
    public void onError(Throwable t) {
      end(call, t, allGood);
    }

    @Override
    public void onCompleted() {
      end(call, null, allGood && received == expected);
    }
  }

  /** Counts how {@code call} ended: as planned (latency recorded if OK), or unexpectedly. */
  private void end(Call call, Throwable error, boolean goodAnswer) {
    long micros = (System.nanoTime() - call.planned()) / 1000;
    Status status = error == null ? Status.OK : Status.fromThrowable(unwrap(error));
    Status.Code expected = switch (call.kind()) {
      case CANCEL -> Status.Code.CANCELLED;
      case DEADLINE -> Status.Code.DEADLINE_EXCEEDED;
      default -> call.asked() == null ? Status.Code.OK : Status.Code.fromValue(call.asked().getCode());
    };
    Status.Code code = status.code();
    if (code != expected) {
      fail(call, code.name(), status);
    } else if (code == Status.Code.OK) {
      if (goodAnswer) {
        latencyMicros.recordValue(Math.max(1, micros));
      } else {
        fail(call, "WRONG_ANSWER", status);
      }
    } else if (call.asked() != null && !call.asked().getMessage().equals(status.description())) {
      fail(call, code.name() + "_WRONG_MESSAGE", status);
    } else {
      asked.computeIfAbsent(code.name(), k -> new LongAdder()).increment();
    }
    // Counted last, so that a snapshot once the calls are done sees this call's outcome.
    completed.increment();
    if (inFlight.decrementAndGet() == 0) {
      CompletableFuture<Void> waiting = idle;
      if (waiting != null) {
        waiting.complete(null);
      }
    }
  }

  private CompletableFuture<Void> awaitIdle() {
    CompletableFuture<Void> waiting = new CompletableFuture<>();
    idle = waiting;
    if (inFlight.get() == 0) {
      waiting.complete(null);
    }
    return waiting;
  }

  private void fail(Call call, String what, Status status) {
    unexpected.computeIfAbsent(what, k -> new LongAdder()).increment();
    note(String.format(java.util.Locale.ROOT, "%s over %s ended %s after %d ms: %s", call.kind(), call.wire(), what,
        (System.nanoTime() - call.planned()) / 1_000_000, status));
  }

  private void note(String example) {
    if (unexpectedExamples.size() < 20) {
      unexpectedExamples.add(example);
    }
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }

  private static Payload payload(int size) {
    return Payload.newBuilder().setBody(ByteString.copyFrom(new byte[size])).build();
  }

  /** Closes every client, the replaced ones not yet closed too; calls still in flight fail. */
  @Override
  public void close() {
    stopped = true;
    timer.shutdownNow();
    for (AtomicReference<Lane> lane : lanes) {
      lane.get().client().close();
    }
    replaced.forEach(TripleClient::close);
  }
}
