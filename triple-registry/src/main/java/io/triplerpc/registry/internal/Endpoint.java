package io.triplerpc.registry.internal;

import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Connector;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One provider instance as the consumer sees it: one object per instance, shared by every service
 * the instance serves. Kept small on purpose (a directory holds hundreds of thousands): the
 * application and revision are those of the {@link RevisionGroup} holding it, not fields.
 */
public final class Endpoint {

  private static final AtomicIntegerFieldUpdater<Endpoint> ACTIVE =
      AtomicIntegerFieldUpdater.newUpdater(Endpoint.class, "active");

  final String host;
  final int port;
  /** Written under the directory's lock; read by balancers. */
  volatile int weight;
  /** The group holding it and its slot there; written under the directory's lock. */
  RevisionGroup group;
  int slot;
  /** Opened on the first call, closed when the instance goes away. */
  private volatile Connection connection;
  /** Guarded by this. */
  private boolean connectionClosed;
  /** Calls in flight, for the least-active, power-of-two-choices and peak-EWMA balancers. */
  private volatile int active;
  private volatile boolean removed;
  /** When a call here last failed with UNAVAILABLE (System.nanoTime), or 0. */
  private volatile long failedAtNanos;

  /** Its calls and ejection state when outlier detection is on, else null. */
  final OutlierStats outlier;
  /** Its latency when the client balances by peak EWMA, else null. */
  final RttEstimate rtt;

  /** How long an instance that answered UNAVAILABLE is passed over while others are at hand. */
  static final long FAILURE_PENALTY_NANOS = 1_000_000_000L;

  Endpoint(String host, int port, int weight) {
    this(host, port, weight, null);
  }

  Endpoint(String host, int port, int weight, OutlierStats outlier) {
    this(host, port, weight, outlier, null);
  }

  Endpoint(String host, int port, int weight, OutlierStats outlier, RttEstimate rtt) {
    this.host = host;
    this.port = port;
    this.weight = weight;
    this.outlier = outlier;
    this.rtt = rtt;
  }

  /**
   * The connection to this instance, opened through {@code connector} on first use (even after the
   * instance was removed: a call that picked it just before goes on, and the connection closes when
   * its last call ends).
   */
  Connection connection(Connector connector) {
    Connection c = connection;
    if (c != null) {
      return c;
    }
    synchronized (this) {
      if (connection == null) {
        connection = connector.connect(InetSocketAddress.createUnresolved(host, port));
      }
      return connection;
    }
  }

  /**
   * Marks it gone: balancers pass it over from now on, and its connection closes once its calls in
   * flight have ended, so a provider that withdraws before draining loses none of them.
   */
  void remove() {
    removed = true;
    if (active == 0) {
      closeConnection();
    }
  }

  /** Whether calls are in flight on a connection that {@link #remove} left open for them. */
  boolean isDraining() {
    return removed && connection != null && !connectionClosed;
  }

  /** Closes its connection now; calls in flight there fail with UNAVAILABLE. Idempotent. */
  void closeConnection() {
    Connection c;
    synchronized (this) {
      c = connection;
      if (c == null || connectionClosed) {
        return;
      }
      connectionClosed = true;
    }
    c.close();
  }

  boolean isRemoved() {
    return removed;
  }

  /** Whether its connection is up (false before the first call). */
  boolean hasActiveConnection() {
    Connection c = connection;
    return c != null && c.isActive();
  }

  Connection openConnection() {
    return connection;
  }

  /** A call here failed with UNAVAILABLE: balancers pass it over for a while if they can. */
  void markFailed() {
    long now = System.nanoTime();
    failedAtNanos = now == 0 ? 1 : now;
  }

  /** A call here succeeded. */
  void markHealthy() {
    if (failedAtNanos != 0) {
      failedAtNanos = 0;
    }
  }

  /** Whether a call here failed with UNAVAILABLE in the last second; a volatile read when it did not. */
  boolean failedRecently() {
    long failedAt = failedAtNanos;
    return failedAt != 0 && System.nanoTime() - failedAt < FAILURE_PENALTY_NANOS;
  }

  /** Counts a call here that ended with {@code code}, for outlier detection if it is on. */
  void recordOutcome(io.triplerpc.Status.Code code) {
    OutlierStats stats = outlier;
    if (stats != null) {
      stats.record(code);
    }
  }

  /** Whether outlier detection took it out of rotation for now. */
  boolean isEjected() {
    OutlierStats stats = outlier;
    return stats != null && stats.isEjected();
  }

  int active() {
    return active;
  }

  void callStarted() {
    ACTIVE.incrementAndGet(this);
  }

  void callEnded() {
    if (ACTIVE.decrementAndGet(this) == 0 && removed) {
      closeConnection();
    }
  }

  boolean matches(String host, int port) {
    return this.port == port && this.host.equals(host);
  }

  static int hash(String host, int port) {
    int h = host.hashCode() * 31 + port;
    return h ^ (h >>> 16);
  }

  /** {@code host:port}. */
  public String address() {
    return host.indexOf(':') >= 0 ? '[' + host + "]:" + port : host + ':' + port;
  }

  /** The weight the registry gave it. */
  public int weight() {
    return weight;
  }

  @Override
  public String toString() {
    return "Endpoint{" + address() + ", weight=" + weight + ", active=" + active + '}';
  }
}
