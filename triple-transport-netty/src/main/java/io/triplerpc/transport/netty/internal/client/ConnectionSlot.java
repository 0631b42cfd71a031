package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientTransportOptions;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the connections a client keeps to an address: connects lazily on first use, replaces a lost
 * connection on the next call, and after a failed attempt waits an exponentially growing, jittered
 * backoff before the next (calls during the wait fail fast with UNAVAILABLE).
 *
 * <p>The hot path, {@link #connection()} on a usable connection, is one volatile read; the lock is
 * taken only to connect. It is a {@link ReentrantLock}, not the slot's monitor: the calls that come while
 * the first one connects wait for it, and on Java 21 to 23 a virtual thread that waits to enter a monitor
 * pins its carrier (seen by {@code VirtualThreadsTest} with four virtual threads making their first calls).
 */
final class ConnectionSlot {

  private static final Logger log = LoggerFactory.getLogger(ConnectionSlot.class);
  private static final double BACKOFF_MULTIPLIER = 1.6;
  private static final double BACKOFF_JITTER = 0.2;

  private final Dialer dialer;
  /** {@code host:port}, for messages. */
  private final String target;
  private final ClientTransportOptions options;
  /**
   * The loop of every connection this slot opens, chosen once: the transport's timers run on it too,
   * so a call's deadline is scheduled on the loop that already carries the call, not one woken for it.
   */
  private final EventLoop loop;
  private final KeepAliveTime keepAliveTime;
  /** Told of each change of this slot's connections (see {@link io.triplerpc.internal.stream.ClientTransport#onConnectionsChanged}). */
  private final Runnable changed;

  /** The connection new streams go to; replaced when it is gone. */
  private volatile ClientConnection current;

  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private long backoffMillis;
  private long retryAtNanos;
  private Status lastFailure;
  private boolean shutdown;

  ConnectionSlot(Dialer dialer, EventLoop loop, KeepAliveTime keepAliveTime, Runnable changed) {
    this.dialer = dialer;
    this.target = dialer.target();
    this.options = dialer.options();
    this.loop = loop;
    this.keepAliveTime = keepAliveTime;
    this.changed = changed;
    this.backoffMillis = options.initialBackoffMillis();
  }

  /**
   * The connection to open a stream on, connecting if there is none.
   *
   * @throws io.triplerpc.StatusException UNAVAILABLE while waiting out a backoff or after shutdown
   */
  ClientConnection connection() {
    ClientConnection c = current;
    if (c != null && c.isUsable()) {
      return c;
    }
    lock.lock();
    try {
      c = current;
      if (c != null && c.isUsable()) {
        return c;
      }
      if (shutdown) {
        throw Status.UNAVAILABLE.withDescription("Client is closed").asException();
      }
      long now = now();
      if (lastFailure != null && now - retryAtNanos < 0) {
        long waitMillis = TimeUnit.NANOSECONDS.toMillis(retryAtNanos - now);
        throw lastFailure.augmentDescription("Next connection attempt in " + waitMillis + " ms").asException();
      }
      c = connect();
      current = c;
      return c;
    } finally {
      lock.unlock();
    }
  }

  /** The current connection, whatever its state, or null. */
  ClientConnection currentConnection() {
    return current;
  }

  boolean isActive() {
    ClientConnection c = current;
    return c != null && c.isActive();
  }

  private ClientConnection connect() {
    SocketChannel channel = dialer.newChannel();
    ClientConnection connection = new ClientConnection(channel, target, this);
    NettyClientHandler http2 = NettyClientHandler.create(connection, options, keepAliveTime);
    // With TLS, HTTP/2 starts once the handshake is done: until then the connection is not active, its
    // calls wait, and a failed handshake counts as a failed connection attempt (backoff included).
    Consumer<Status> failed = status -> connectFailed(connection, status);
    if (dialer.isTls()) {
      dialer.addTls(channel, failed, () -> channel.pipeline().addLast(http2));
    } else {
      channel.pipeline().addLast(http2);
    }
    dialer.connect(loop, channel, failed, () -> { });
    return connection;
  }

  /** A connection attempt failed with {@code status}: its calls fail, and the next attempt waits out the backoff. */
  private void connectFailed(ClientConnection connection, Status status) {
    Throwable cause = status.cause();
    long jittered;
    lock.lock();
    try {
      lastFailure = status;
      jittered = (long) (backoffMillis * (1 + BACKOFF_JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1)));
      retryAtNanos = now() + TimeUnit.MILLISECONDS.toNanos(jittered);
      backoffMillis = Math.min(options.maxBackoffMillis(), (long) (backoffMillis * BACKOFF_MULTIPLIER));
    } finally {
      lock.unlock();
    }
    log.debug("Connection attempt to {} failed; next in about {} ms", target, backoffMillis, cause);
    backoffEnds(jittered);
    connection.markClosed(status.asException());
  }

  /**
   * Reports the end of the backoff, when a call may connect again, as a change of the connections. The
   * timer runs on the slot's loop, whose clock the backoff is counted by; none once the loop stops.
   */
  private void backoffEnds(long afterMillis) {
    if (loop.isShuttingDown()) {
      return;
    }
    try {
      loop.schedule(changed, afterMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      // The client is closing: no call will connect again.
    }
  }

  /** The time of the event loops, by which backoffs are counted (a test's mock clock, say). */
  private long now() {
    return loop.ticker().nanoTime();
  }

  /** The event loop of this slot's connections. */
  EventLoop eventLoop() {
    return loop;
  }

  /** A connection finished its handshake: the backoff starts over. */
  void connected(ClientConnection connection) {
    lock.lock();
    try {
      lastFailure = null;
      backoffMillis = options.initialBackoffMillis();
    } finally {
      lock.unlock();
    }
    changed.run();
  }

  /** A connection is going away; the next call opens a new one. */
  void lost(ClientConnection connection, Throwable cause) {
    log.debug("Connection to {} lost: {}", target, cause.toString());
    changed.run();
  }

  /** Closes the connection (GOAWAY; its calls fail with UNAVAILABLE); no new one opens. */
  void shutdown() {
    ClientConnection c;
    lock.lock();
    try {
      if (shutdown) {
        return;
      }
      shutdown = true;
      c = current;
    } finally {
      lock.unlock();
    }
    if (c != null) {
      // Through the queue, after what the calls queued before it: GOAWAY, then the connection closes.
      // The drain is a task queued before the event loops shut down, so it runs.
      c.closeForClient();
    }
  }
}
