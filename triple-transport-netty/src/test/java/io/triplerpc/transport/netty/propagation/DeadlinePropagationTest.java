package io.triplerpc.transport.netty.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerContext;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.testing.Signal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two hops over real sockets: a client calls the middle server, whose service calls the leaf server.
 * The middle's calls inherit its call's deadline (capped by their own) and end with it, without the
 * service passing anything, also from threads it hands work to through {@link ServerContext#wrap};
 * {@link CallOptions#withoutPropagation()} opts out.
 */
class DeadlinePropagationTest {

  @TripleService(name = "triple.test.Leaf")
  public interface Leaf {
    /** The time left of this call, in milliseconds, or -1 without a deadline. */
    long remainingMillis();

    /** Completes when the test completes {@code id}'s hold. */
    CompletableFuture<String> hold(String id);
  }

  @TripleService(name = "triple.test.Middle")
  public interface Middle {
    /** What the leaf saw as time left, asked directly, opted out, from a wrapped pool or a plain one. */
    long leafRemainingMillis(String how);

    /** Waits for the leaf's hold of {@code id}. */
    String relayHold(String id);

    /** Starts a hold of {@code id} at the leaf and returns at once, leaving it running. */
    String fireAndForget(String id, boolean propagate);
  }

  private static final Map<String, CompletableFuture<String>> holds = new ConcurrentHashMap<>();
  /** The holds the leaf's service was asked for. */
  private static final java.util.Set<String> asked = ConcurrentHashMap.newKeySet();
  private static final Map<String, CompletableFuture<String>> children = new ConcurrentHashMap<>();
  /** Fired when the leaf is asked for a hold and when the middle starts one. */
  private static final Signal started = new Signal();
  private static final BlockingQueue<String> leafCancellations = new LinkedBlockingQueue<>();
  private static final ExecutorService pool = Executors.newFixedThreadPool(2);
  private static TripleServer leafServer;
  private static TripleServer middleServer;
  private static TripleClient toLeaf;
  private static TripleClient client;

  private static CompletableFuture<String> holdOf(String id) {
    return holds.computeIfAbsent(id, k -> new CompletableFuture<>());
  }

  @BeforeAll
  static void start() {
    ServerInterceptor cancellations = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        return new ForwardingServerCallListener<>(next.startCall(call, headers)) {
          @Override
          public void onCancel() {
            leafCancellations.add(call.method().methodName());
            super.onCancel();
          }
        };
      }
    };
    leafServer = TripleServer.builder().host("127.0.0.1").port(0).intercept(cancellations)
        .addService(Leaf.class, new Leaf() {
          @Override
          public long remainingMillis() {
            long nanos = ServerContext.current().remainingNanos();
            return nanos == Long.MAX_VALUE ? -1 : TimeUnit.NANOSECONDS.toMillis(nanos);
          }

          @Override
          public CompletableFuture<String> hold(String id) {
            asked.add(id);
            started.fire();
            return holdOf(id);
          }
        }).build().start();
    toLeaf = TripleClient.builder().address("127.0.0.1", leafServer.port()).build();
    Leaf leaf = toLeaf.proxy(Leaf.class);
    Leaf leafOptedOut = toLeaf.proxy(Leaf.class, CallOptions.DEFAULT.withoutPropagation());
    middleServer = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Middle.class, new Middle() {
          @Override
          public long leafRemainingMillis(String how) {
            switch (how) {
              case "direct":
                return leaf.remainingMillis();
              case "optout":
                return leafOptedOut.remainingMillis();
              case "wrapped":
                return CompletableFuture.supplyAsync(leaf::remainingMillis, ServerContext.wrap(pool)).join();
              default:
                return CompletableFuture.supplyAsync(leaf::remainingMillis, pool).join();
            }
          }

          @Override
          public String relayHold(String id) {
            return leaf.hold(id).join();
          }

          @Override
          public String fireAndForget(String id, boolean propagate) {
            children.put(id, (propagate ? leaf : leafOptedOut).hold(id));
            started.fire();
            return "started";
          }
        }).build().start();
    client = TripleClient.builder().address("127.0.0.1", middleServer.port()).build();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    client.close();
    toLeaf.close();
    middleServer.shutdownNow();
    leafServer.shutdownNow();
    pool.shutdownNow();
    middleServer.awaitTermination(Duration.ofSeconds(10));
    leafServer.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void theLeafSeesTheCallersDeadlineUnlessOptedOutOrOnAnUnwrappedThread() {
    Middle middle = client.proxy(Middle.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30)));
    long direct = middle.leafRemainingMillis("direct");
    assertTrue(direct > 0 && direct <= 30_000, "the leaf's deadline is the caller's: " + direct);
    long wrapped = middle.leafRemainingMillis("wrapped");
    assertTrue(wrapped > 0 && wrapped <= 30_000, "a wrapped executor carries it: " + wrapped);
    assertEquals(-1, middle.leafRemainingMillis("optout"));
    assertEquals(-1, middle.leafRemainingMillis("unwrapped"), "a thread the service did not wrap has no context");
    assertEquals(-1, client.proxy(Middle.class).leafRemainingMillis("direct"), "no deadline, none inherited");
  }

  @Test
  void aShorterOwnDeadlineWins() {
    Leaf leafWithItsOwn = toLeaf.proxy(Leaf.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5)));
    TripleServer middle = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Middle.class, new Middle() {
          @Override
          public long leafRemainingMillis(String how) {
            return leafWithItsOwn.remainingMillis();
          }

          @Override
          public String relayHold(String id) {
            throw new UnsupportedOperationException();
          }

          @Override
          public String fireAndForget(String id, boolean propagate) {
            throw new UnsupportedOperationException();
          }
        }).build().start();
    try (TripleClient c = TripleClient.builder().address("127.0.0.1", middle.port()).build()) {
      long seen = c.proxy(Middle.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60))).leafRemainingMillis("");
      assertTrue(seen > 0 && seen <= 5_000, "the call's own 5 s, not the caller's 60 s: " + seen);
    } finally {
      middle.shutdownNow();
    }
  }

  @Test
  void cancellingTheFirstCallCancelsTheSecondHop() throws Exception {
    leafCancellations.clear();
    TripleClient leaving = TripleClient.builder().address("127.0.0.1", middleServer.port()).build();
    CompletableFuture<String> relayed = CompletableFuture.supplyAsync(() -> leaving.proxy(Middle.class).relayHold("relay"));
    // Once the leaf holds the call, the caller goes away: its connection's streams are reset.
    awaitHeld("relay");
    leaving.close();
    assertEquals("hold", leafCancellations.poll(20, TimeUnit.SECONDS), "the leaf's call was cancelled");
    CompletionException failed = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, relayed::join);
    assertInstanceOf(StatusException.class, failed.getCause());
  }

  @Test
  void aCallMadeForAServerCallEndsWithItUnlessOptedOut() throws Exception {
    leafCancellations.clear();
    Middle middle = client.proxy(Middle.class);
    assertEquals("started", middle.fireAndForget("propagated", true));
    CompletionException ended = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
        () -> awaitChild("propagated").orTimeout(20, TimeUnit.SECONDS).join());
    StatusException status = assertInstanceOf(StatusException.class, ended.getCause());
    assertEquals(Status.Code.CANCELLED, status.status().code(), status::toString);
    assertEquals("hold", leafCancellations.poll(20, TimeUnit.SECONDS));

    assertEquals("started", middle.fireAndForget("detached", false));
    awaitHeld("detached");
    holdOf("detached").complete("done");
    assertEquals("done", awaitChild("detached").get(20, TimeUnit.SECONDS), "an opted-out call outlives it");
  }

  /** Waits until the leaf's hold of {@code id} was asked for (the leaf's service ran). */
  private static void awaitHeld(String id) throws InterruptedException {
    started.await(() -> asked.contains(id), "the leaf holds " + id);
  }

  private static CompletableFuture<String> awaitChild(String id) throws InterruptedException {
    started.await(() -> children.containsKey(id), "the middle started " + id);
    return children.get(id);
  }
}
