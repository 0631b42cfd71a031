package io.triplerpc.interop;

import io.triplerpc.CallOptions;
import io.triplerpc.CallStreamObserver;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.ClientProtocol;
import io.triplerpc.ClientResponseObserver;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every blocking shape a virtual-thread user writes besides the unary relay of {@link VirtualThreadsTest},
 * run in its child JVM under the same recording of pinned virtual threads: each blocking wait below is made
 * on a virtual thread (the callers, the service methods and the client's callbacks, the producers a
 * service starts), against one server whose service methods run on virtual threads. Each shape prints
 * {@code = <shape>: <calls as expected>/<calls>}, and the streaming ones how often a sender found the
 * stream not ready and waited ({@code = <shape> ready waits: n}).
 *
 * <ul>
 *   <li>server streaming consumed blockingly: Triple's API has no blocking iterator, so the response
 *       observer feeds a bounded queue (its callback blocks when the queue is full) that the caller takes
 *       from, as a virtual-thread user would write one;
 *   <li>client and bidi streaming of {@value #MESSAGES} messages of {@value #MESSAGE_BYTES} bytes, the
 *       sender waiting for {@link CallStreamObserver#isReady()} on a condition its on-ready handler
 *       signals, on both sides (a 64 KiB message is past the 32 KiB a stream buffers before it is not
 *       ready);
 *   <li>unary over Connect on HTTP/1.1, over gRPC-Web on HTTP/1.1 and on HTTP/2;
 *   <li>a retry policy (the server answers UNAVAILABLE to the first two attempts) and hedging (the server
 *       holds the first attempt until it is cancelled, answers the second);
 *   <li>a deadline that passes while the caller waits, and cancels made from another virtual thread: an
 *       interrupt of a synchronous call, a future's {@code cancel}, a server stream's {@code cancel}.
 * </ul>
 *
 * <p>Synchronous calls and a future's {@code get} are each half of the callers of the unary shapes.
 */
final class BlockingShapes {

  static final int MESSAGES = 64;
  static final int MESSAGE_BYTES = 64 * 1024;
  /** Callers of each shape, at once. */
  static final int CALLERS = 4;
  /** Callers of each unary shape, at once. */
  static final int UNARY_CALLERS = 16;
  /** The attempt of a retried call the server answers. */
  static final int ANSWERED_ATTEMPT = 3;

  private static final String SERVICE = "triple.vt.Shapes";
  private static final long WAIT_SECONDS = 30;

  /** The service as the callers see it. */
  @TripleService(name = SERVICE)
  public interface Shapes {
    /** {@code request} names the call and the number of messages ({@code "name/64"}). */
    void download(String request, StreamObserver<byte[]> messages);

    /** Answers the bytes received. */
    @TripleMethod(clientStreaming = true)
    StreamObserver<byte[]> upload(StreamObserver<Long> received);

    StreamObserver<byte[]> echo(StreamObserver<byte[]> echoes);

    String unary(String request);

    String flaky(String request);

    @TripleMethod(idempotent = true)
    String hedged(String request);

    /** Answered by no one: the call ends by its deadline or a cancel. */
    String held(String request);
  }

  /** The unary methods, as callers that wait on a future see them. */
  @TripleService(name = SERVICE)
  public interface FutureShapes {
    CompletableFuture<String> unary(String request);

    CompletableFuture<String> flaky(String request);

    @TripleMethod(idempotent = true)
    CompletableFuture<String> hedged(String request);

    CompletableFuture<String> held(String request);
  }

  private final ThreadFactory threads;
  /** Where the findings go: the child JVM's standard output, which the test reads. */
  private final PrintStream out;
  /** What went wrong on the virtual threads, for the next {@link #report} to print. */
  private final Queue<String> problems = new ConcurrentLinkedQueue<>();
  private final Served served;
  private final TripleServer server;

  private BlockingShapes(ThreadFactory threads, PrintStream out) {
    this.threads = threads;
    this.out = out;
    this.served = new Served(threads);
    this.server = TripleServer.builder().host("127.0.0.1").port(0).virtualThreads()
        .addService(Shapes.class, served).build().start();
  }

  /** Runs every shape, printing what it found to {@code out}; {@code threads} makes virtual threads. */
  static void runAll(ThreadFactory threads, PrintStream out) throws Exception {
    BlockingShapes shapes = new BlockingShapes(threads, out);
    try {
      shapes.run();
    } finally {
      shapes.server.shutdownNow();
      shapes.server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private void run() throws Exception {
    int port = server.port();
    try (TripleClient grpc = TripleClient.builder().address("127.0.0.1", port).virtualThreads()
        .retryPolicy(RetryPolicy.builder().maxAttempts(ANSWERED_ATTEMPT).initialBackoff(Duration.ofMillis(10))
            .retryableStatusCodes(Status.Code.UNAVAILABLE).build(), SERVICE + "/flaky")
        .hedgingPolicy(HedgingPolicy.builder().maxAttempts(2).hedgingDelay(Duration.ZERO).build(), SERVICE + "/hedged")
        .build();
        TripleClient connectHttp1 = TripleClient.builder().address("127.0.0.1", port).virtualThreads()
            .protocol(ClientProtocol.CONNECT).http1(true).build();
        TripleClient grpcWebHttp1 = TripleClient.builder().address("127.0.0.1", port).virtualThreads()
            .protocol(ClientProtocol.GRPC_WEB).http1(true).build();
        TripleClient grpcWeb = TripleClient.builder().address("127.0.0.1", port).virtualThreads()
            .protocol(ClientProtocol.GRPC_WEB).build()) {
      Shapes shapes = grpc.proxy(Shapes.class);
      FutureShapes futures = grpc.proxy(FutureShapes.class);

      AtomicInteger clientWaits = new AtomicInteger();
      report("server streaming", CALLERS, i -> download(shapes, "download" + i));
      report("client streaming", CALLERS, i -> upload(shapes, clientWaits));
      report("bidi streaming", CALLERS, i -> echo(shapes, clientWaits));
      out.println("= client ready waits: " + clientWaits.get());
      out.println("= server ready waits: " + served.readyWaits.get());

      unary("unary connect http/1.1", connectHttp1);
      unary("unary grpc-web http/1.1", grpcWebHttp1);
      unary("unary grpc-web", grpcWeb);

      report("retry", UNARY_CALLERS, i -> {
        String request = "flaky" + i;
        String answer = i % 2 == 0 ? shapes.flaky(request) : futures.flaky(request).get(WAIT_SECONDS, TimeUnit.SECONDS);
        return answer.equals("attempt " + ANSWERED_ATTEMPT + " of " + request);
      });
      out.println("= retry attempts: " + served.attempts("flaky") + "/" + UNARY_CALLERS * ANSWERED_ATTEMPT);
      report("hedging", UNARY_CALLERS, i -> {
        String request = "hedged" + i;
        String answer = i % 2 == 0 ? shapes.hedged(request)
            : futures.hedged(request).get(WAIT_SECONDS, TimeUnit.SECONDS);
        // The held attempt ends when the answered one wins: the server saw it cancelled.
        return answer.equals("attempt 2 of " + request) && served.ended("hedged" + i + "#1") != Status.Code.OK;
      });
      out.println("= hedging attempts: " + served.attempts("hedged") + "/" + UNARY_CALLERS * 2);

      CallOptions shortDeadline = CallOptions.DEFAULT.withTimeout(Duration.ofMillis(200));
      Shapes expiring = grpc.proxy(Shapes.class, shortDeadline);
      FutureShapes expiringFutures = grpc.proxy(FutureShapes.class, shortDeadline);
      report("deadline", CALLERS, i -> {
        String request = "deadline" + i;
        Status.Code code = i % 2 == 0 ? codeOf(() -> expiring.held(request))
            : codeOf(() -> expiringFutures.held(request).get(WAIT_SECONDS, TimeUnit.SECONDS));
        return code == Status.Code.DEADLINE_EXCEEDED && served.ended(request) != Status.Code.OK;
      });
      report("cancel by interrupt", CALLERS, i -> cancelByInterrupt(shapes, "interrupted" + i));
      report("cancel future", CALLERS, i -> cancelFuture(futures, "cancelled" + i));
      report("cancel server stream", CALLERS, i -> cancelDownload(shapes, "stopped" + i));
    }
  }

  // The shapes, each run by one virtual thread per caller; true when the call ended as it should.

  private boolean download(Shapes shapes, String name) throws Exception {
    BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4);
    shapes.download(name + "/" + MESSAGES, new QueueingObserver<>(queue));
    long bytes = 0;
    int messages = 0;
    Object next;
    for (next = take(queue); next instanceof byte[]; next = take(queue)) {
      byte[] message = (byte[]) next;
      if (message[0] != (byte) messages) {
        return false;
      }
      bytes += message.length;
      messages++;
    }
    return next == Status.Code.OK && messages == MESSAGES && bytes == (long) MESSAGES * MESSAGE_BYTES;
  }

  private boolean upload(Shapes shapes, AtomicInteger waits) throws Exception {
    CompletableFuture<Long> received = new CompletableFuture<>();
    ReadyGate gate = new ReadyGate(waits);
    CompletableFuture<ClientCallStreamObserver<byte[]>> started = new CompletableFuture<>();
    shapes.upload(new ClientResponseObserver<byte[], Long>() {
      @Override
      public void beforeStart(ClientCallStreamObserver<byte[]> requests) {
        requests.setOnReadyHandler(gate);
        started.complete(requests);
      }

      @Override
      public void onNext(Long value) {
        received.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        gate.end();
        received.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {}
    });
    ClientCallStreamObserver<byte[]> requests = started.getNow(null);
    for (int i = 0; i < MESSAGES; i++) {
      if (!gate.await(requests)) {
        break;
      }
      requests.onNext(message(i));
    }
    requests.onCompleted();
    return received.get(WAIT_SECONDS, TimeUnit.SECONDS) == (long) MESSAGES * MESSAGE_BYTES;
  }

  /** A writer (this thread) and a reader (another virtual thread) on one bidi call. */
  private boolean echo(Shapes shapes, AtomicInteger waits) throws Exception {
    BlockingQueue<Object> echoes = new ArrayBlockingQueue<>(4);
    ReadyGate gate = new ReadyGate(waits);
    CompletableFuture<ClientCallStreamObserver<byte[]>> started = new CompletableFuture<>();
    shapes.echo(new QueueingObserver<byte[]>(echoes) {
      @Override
      public void beforeStart(ClientCallStreamObserver<byte[]> requests) {
        requests.setOnReadyHandler(gate);
        started.complete(requests);
      }

      @Override
      public void onError(Throwable t) {
        gate.end();
        super.onError(t);
      }
    });
    ClientCallStreamObserver<byte[]> requests = started.getNow(null);
    CompletableFuture<Integer> read = new CompletableFuture<>();
    threads.newThread(() -> {
      try {
        int count = 0;
        Object next;
        for (next = take(echoes); next instanceof byte[]; next = take(echoes)) {
          if (((byte[]) next)[0] == (byte) count && ((byte[]) next).length == MESSAGE_BYTES) {
            count++;
          }
        }
        read.complete(next == Status.Code.OK ? count : -1);
      } catch (Throwable t) {
        read.completeExceptionally(t);
      }
    }).start();
    for (int i = 0; i < MESSAGES; i++) {
      if (!gate.await(requests)) {
        break;
      }
      requests.onNext(message(i));
    }
    requests.onCompleted();
    return read.get(WAIT_SECONDS, TimeUnit.SECONDS) == MESSAGES;
  }

  private void unary(String shape, TripleClient client) throws Exception {
    Shapes shapes = client.proxy(Shapes.class);
    FutureShapes futures = client.proxy(FutureShapes.class);
    report(shape, UNARY_CALLERS, i -> {
      String request = shape + " " + i;
      String answer = i % 2 == 0 ? shapes.unary(request) : futures.unary(request).get(WAIT_SECONDS, TimeUnit.SECONDS);
      return answer.equals("unary " + request);
    });
  }

  private boolean cancelByInterrupt(Shapes shapes, String request) throws Exception {
    CompletableFuture<Status.Code> outcome = new CompletableFuture<>();
    Thread caller = threads.newThread(() -> outcome.complete(codeOf(() -> shapes.held(request))));
    caller.start();
    canceller(() -> {
      served.arrived(request).get(WAIT_SECONDS, TimeUnit.SECONDS);
      caller.interrupt();
    });
    return outcome.get(WAIT_SECONDS, TimeUnit.SECONDS) == Status.Code.CANCELLED
        && served.ended(request) == Status.Code.CANCELLED;
  }

  private boolean cancelFuture(FutureShapes futures, String request) throws Exception {
    CompletableFuture<String> answer = futures.held(request);
    canceller(() -> {
      served.arrived(request).get(WAIT_SECONDS, TimeUnit.SECONDS);
      answer.cancel(true);
    });
    try {
      answer.get(WAIT_SECONDS, TimeUnit.SECONDS);
      return false;
    } catch (CancellationException expected) {
      return served.ended(request) == Status.Code.CANCELLED;
    }
  }

  /** The caller takes the first message; another virtual thread cancels the call. */
  private boolean cancelDownload(Shapes shapes, String name) throws Exception {
    BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4);
    CompletableFuture<ClientCallStreamObserver<String>> started = new CompletableFuture<>();
    shapes.download(name + "/" + Integer.MAX_VALUE, new QueueingObserver<String>(queue) {
      @Override
      public void beforeStart(ClientCallStreamObserver<String> request) {
        started.complete(request);
      }
    });
    if (!(take(queue) instanceof byte[])) {
      return false;
    }
    canceller(() -> started.getNow(null).cancel("enough", null));
    Object next;
    do {
      next = take(queue);
    } while (next instanceof byte[]);
    return next == Status.Code.CANCELLED && served.ended(name) == Status.Code.CANCELLED;
  }

  // Helpers.

  /** What a caller does: true if its call ended as the shape says. */
  private interface Caller {
    boolean call(int index) throws Exception;
  }

  /** Something a virtual thread does that may throw. */
  private interface Task {
    void run() throws Exception;
  }

  /**
   * Runs {@code callers} callers of {@code shape} at once, each on a virtual thread, and prints how many did
   * as they should, and why the others did not. Printed by this thread, once they are done: a virtual thread
   * that prints may wait for the stream's monitor, which the recording would count.
   */
  private void report(String shape, int callers, Caller caller) throws InterruptedException {
    AtomicInteger good = new AtomicInteger();
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      int index = i;
      Thread thread = threads.newThread(() -> {
        try {
          if (caller.call(index)) {
            good.incrementAndGet();
          } else {
            problems.add(shape + " caller " + index + " ended otherwise");
          }
        } catch (Throwable t) {
          problems.add(shape + " caller " + index + " failed: " + stackTrace(t));
        }
      });
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join(TimeUnit.SECONDS.toMillis(2 * WAIT_SECONDS));
    }
    for (String problem; (problem = problems.poll()) != null; ) {
      out.println(problem);
    }
    out.println("= " + shape + ": " + good.get() + "/" + callers);
  }

  /** Runs {@code task} on a virtual thread of its own, its failure noted. */
  private void canceller(Task task) {
    threads.newThread(() -> {
      try {
        task.run();
      } catch (Throwable t) {
        problems.add("a canceller failed: " + stackTrace(t));
      }
    }).start();
  }

  private static String stackTrace(Throwable t) {
    StringWriter trace = new StringWriter();
    t.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }

  /** The status a call ends with: OK if it answers. */
  private static Status.Code codeOf(Task call) {
    try {
      call.run();
      return Status.Code.OK;
    } catch (StatusException e) {
      return e.status().code();
    } catch (ExecutionException e) {
      return Status.fromThrowable(e.getCause()).code();
    } catch (Exception e) {
      return Status.fromThrowable(e).code();
    }
  }

  private static Object take(BlockingQueue<Object> queue) throws InterruptedException {
    Object next = queue.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (next == null) {
      throw new AssertionError("nothing came in " + WAIT_SECONDS + " s");
    }
    return next;
  }

  private static byte[] message(int index) {
    byte[] message = new byte[MESSAGE_BYTES];
    message[0] = (byte) index;
    return message;
  }

  /**
   * A response observer that puts what it gets in a bounded queue, blocking its callback thread when the
   * queue is full: the values, then the call's end as a {@link Status.Code}.
   */
  private static class QueueingObserver<Q> implements ClientResponseObserver<Q, byte[]> {
    private final BlockingQueue<Object> queue;

    QueueingObserver(BlockingQueue<Object> queue) {
      this.queue = queue;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<Q> requests) {}

    @Override
    public void onNext(byte[] value) {
      put(value);
    }

    @Override
    public void onError(Throwable t) {
      put(Status.fromThrowable(t).code());
    }

    @Override
    public void onCompleted() {
      put(Status.Code.OK);
    }

    private void put(Object value) {
      try {
        if (!queue.offer(value, WAIT_SECONDS, TimeUnit.SECONDS)) {
          throw new AssertionError("the caller took nothing for " + WAIT_SECONDS + " s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /**
   * Outbound flow control as blocking code writes it: the sender waits on a condition for the stream to be
   * ready, and the stream's on-ready handler (this) signals it.
   */
  static final class ReadyGate implements Runnable {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AtomicInteger waits;
    /** The call ended: a sender waits no more. */
    private volatile boolean ended;

    ReadyGate(AtomicInteger waits) {
      this.waits = waits;
    }

    @Override
    public void run() {
      lock.lock();
      try {
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    void end() {
      ended = true;
      run();
    }

    /** Waits until {@code stream} is ready; false if the call ended first. */
    boolean await(CallStreamObserver<?> stream) throws InterruptedException {
      if (stream.isReady()) {
        return true;
      }
      waits.incrementAndGet();
      lock.lock();
      try {
        // Checked under the lock the handler takes: a turn to ready after this check signals the wait.
        while (!stream.isReady() && !ended) {
          if (!changed.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("not ready in " + WAIT_SECONDS + " s");
          }
        }
        return !ended;
      } finally {
        lock.unlock();
      }
    }
  }

  /** The service: its methods run on virtual threads; streams it answers are written by virtual threads it starts. */
  static final class Served implements Shapes {
    private final ThreadFactory threads;
    final AtomicInteger readyWaits = new AtomicInteger();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Status.Code>> ends = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> arrivals = new ConcurrentHashMap<>();

    Served(ThreadFactory threads) {
      this.threads = threads;
    }

    /** How the call named {@code request} ended, as the server saw it. */
    Status.Code ended(String request) throws Exception {
      return end(request).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Completes when the call named {@code request} has reached its service method. */
    CompletableFuture<Void> arrived(String request) {
      return arrivals.computeIfAbsent(request, key -> new CompletableFuture<>());
    }

    /** Attempts of the calls whose names start with {@code prefix}. */
    int attempts(String prefix) {
      return attempts.entrySet().stream().filter(entry -> entry.getKey().startsWith(prefix))
          .mapToInt(entry -> entry.getValue().get()).sum();
    }

    private CompletableFuture<Status.Code> end(String request) {
      return ends.computeIfAbsent(request, key -> new CompletableFuture<>());
    }

    /** Records how the current call ends, under {@code name}. */
    private CompletableFuture<Status.Code> watch(String name) {
      CompletableFuture<Status.Code> end = end(name);
      ServerContext.current().addEndListener(status -> end.complete(status.code()));
      arrived(name).complete(null);
      return end;
    }

    @Override
    public void download(String request, StreamObserver<byte[]> messages) {
      String name = request.substring(0, request.indexOf('/'));
      int count = Integer.parseInt(request.substring(request.indexOf('/') + 1));
      watch(name);
      ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) messages;
      ReadyGate gate = new ReadyGate(readyWaits);
      call.setOnReadyHandler(gate);
      call.setOnCancelHandler(gate::end);
      threads.newThread(() -> {
        try {
          for (int i = 0; i < count; i++) {
            if (!gate.await(call)) {
              return;
            }
            call.onNext(message(i));
          }
          call.onCompleted();
        } catch (Throwable t) {
          call.onError(t);
        }
      }).start();
    }

    @Override
    public StreamObserver<byte[]> upload(StreamObserver<Long> received) {
      return new StreamObserver<>() {
        private long bytes;

        @Override
        public void onNext(byte[] value) {
          bytes += value.length;
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          received.onNext(bytes);
          received.onCompleted();
        }
      };
    }

    /** Each request goes to a queue that a writer thread empties as the stream is ready. */
    @Override
    public StreamObserver<byte[]> echo(StreamObserver<byte[]> echoes) {
      ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) echoes;
      ReadyGate gate = new ReadyGate(readyWaits);
      call.setOnReadyHandler(gate);
      call.setOnCancelHandler(gate::end);
      Object end = new Object();
      BlockingQueue<Object> pending = new LinkedBlockingQueue<>();
      threads.newThread(() -> {
        try {
          for (Object next = take(pending); next != end; next = take(pending)) {
            if (!gate.await(call)) {
              return;
            }
            call.onNext((byte[]) next);
          }
          call.onCompleted();
        } catch (Throwable t) {
          call.onError(t);
        }
      }).start();
      return new StreamObserver<>() {
        @Override
        public void onNext(byte[] value) {
          pending.add(value);
        }

        @Override
        public void onError(Throwable t) {
          gate.end();
        }

        @Override
        public void onCompleted() {
          pending.add(end);
        }
      };
    }

    @Override
    public String unary(String request) {
      return "unary " + request;
    }

    @Override
    public String flaky(String request) {
      int attempt = attempts.computeIfAbsent(request, key -> new AtomicInteger()).incrementAndGet();
      if (attempt < ANSWERED_ATTEMPT) {
        throw Status.UNAVAILABLE.withDescription("attempt " + attempt + " of " + request).asException();
      }
      return "attempt " + attempt + " of " + request;
    }

    /** The first attempt to arrive waits, its service thread parked, until the call ends; the next answers. */
    @Override
    public String hedged(String request) {
      int attempt = attempts.computeIfAbsent(request, key -> new AtomicInteger()).incrementAndGet();
      CompletableFuture<Status.Code> end = watch(request + "#" + attempt);
      if (attempt == 1) {
        awaitQuietly(end);
      }
      return "attempt " + attempt + " of " + request;
    }

    /** Parks its service thread until the call ends: by the caller's deadline, or a cancel. */
    @Override
    public String held(String request) {
      awaitQuietly(watch(request));
      return "too late";
    }

    private static void awaitQuietly(CompletableFuture<Status.Code> end) {
      try {
        end.get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw Status.INTERNAL.withDescription("the call did not end").withCause(e).asException();
      }
    }
  }
}
