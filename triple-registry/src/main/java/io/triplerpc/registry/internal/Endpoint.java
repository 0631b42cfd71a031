package io.triplerpc.registry.internal;

import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Connector;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * One provider instance as the consumer sees it: one object per instance, shared by every service
 * the instance serves. Kept small on purpose (a directory holds millions): 40 bytes with compressed
 * references. The application and revision are those of the {@link RevisionGroup} holding it; an IPv4
 * host in its dotted-decimal form is kept as an int (and made into a string again when connecting);
 * what most instances never need (another host, the connection, the last failure, the outlier and
 * latency statistics) lives in an {@link Extra} made when first needed.
 */
public final class Endpoint {

  private static final AtomicIntegerFieldUpdater<Endpoint> STATE =
      AtomicIntegerFieldUpdater.newUpdater(Endpoint.class, "state");
  private static final AtomicReferenceFieldUpdater<Endpoint, Extra> EXTRA =
      AtomicReferenceFieldUpdater.newUpdater(Endpoint.class, Extra.class, "extra");
  /** The sign bit of {@link #state}: the instance is gone. */
  private static final int REMOVED = Integer.MIN_VALUE;
  /** The sign bit of {@link #slotAndMark}: seen in the list being applied. */
  private static final int MARK = Integer.MIN_VALUE;

  /** The host when it is an IPv4 address in dotted-decimal form (then {@link Extra#host} is null). */
  private final int ipv4;
  final int port;
  /** Written under the directory's lock; read by balancers. */
  volatile int weight;
  /** The group holding it; written under the directory's lock. */
  RevisionGroup group;
  /** Its slot in the group, and {@link #MARK}; written under the directory's lock. */
  private int slotAndMark;
  /** Calls in flight (the low 31 bits) and {@link #REMOVED}: one word, so the last call of a removed instance sees it. */
  private volatile int state;
  /** Null until needed; set once. */
  private volatile Extra extra;

  /** What few instances need; one per endpoint at most, made on first need. */
  private static final class Extra {
    /** The host when it is not a dotted-decimal IPv4 address, else null. */
    final String host;
    /** Its calls and ejection state when outlier detection is on, else null. */
    final OutlierStats outlier;
    /** Its latency when the client balances by peak EWMA, else null. */
    final RttEstimate rtt;
    /** Opened on the first call, closed when the instance goes away. */
    volatile Connection connection;
    /** Guarded by the endpoint. */
    boolean connectionClosed;
    /** When a call here last failed with UNAVAILABLE (System.nanoTime), or 0. */
    volatile long failedAtNanos;
    /** When the instance started (epoch ms) if it was warming up when last seen, else 0. */
    volatile long startTimeMillis;

    Extra(String host, OutlierStats outlier, RttEstimate rtt) {
      this.host = host;
      this.outlier = outlier;
      this.rtt = rtt;
    }
  }

  /** How long an instance that answered UNAVAILABLE is passed over while others are at hand. */
  static final long FAILURE_PENALTY_NANOS = 1_000_000_000L;

  Endpoint(String host, int port, int weight) {
    this(host, port, weight, null);
  }

  Endpoint(String host, int port, int weight, OutlierStats outlier) {
    this(host, port, weight, outlier, null);
  }

  Endpoint(String host, int port, int weight, OutlierStats outlier, RttEstimate rtt) {
    this(host, ipv4(host), port, weight, outlier, rtt);
  }

  /** With {@code ipv4} = {@link #ipv4(String) ipv4(host)}, already parsed. */
  Endpoint(String host, long ipv4, int port, int weight, OutlierStats outlier, RttEstimate rtt) {
    this.ipv4 = ipv4 < 0 ? 0 : (int) ipv4;
    this.port = port;
    this.weight = weight;
    String other = ipv4 < 0 ? host : null;
    if (other != null || outlier != null || rtt != null) {
      this.extra = new Extra(other, outlier, rtt);
    }
  }

  /**
   * {@code host} as an unsigned 32-bit value if it is an IPv4 address in the dotted-decimal form
   * that {@link #host()} gives back unchanged (four numbers of 0..255 without leading zeros), else -1.
   */
  static long ipv4(String host) {
    int n = host.length();
    if (n < 7 || n > 15) {
      return -1;
    }
    long value = 0;
    int part = 0;
    int digits = 0;
    int dots = 0;
    for (int i = 0; i < n; i++) {
      char c = host.charAt(i);
      if (c == '.') {
        if (digits == 0 || ++dots > 3) {
          return -1;
        }
        value = value << 8 | part;
        part = 0;
        digits = 0;
      } else if (c >= '0' && c <= '9') {
        if (digits > 0 && part == 0) {
          return -1; // a leading zero
        }
        part = part * 10 + (c - '0');
        if (++digits > 3 || part > 255) {
          return -1;
        }
      } else {
        return -1;
      }
    }
    return dots == 3 && digits > 0 ? value << 8 | part : -1;
  }

  private Extra extra() {
    Extra x = extra;
    if (x == null) {
      x = new Extra(null, null, null);
      if (!EXTRA.compareAndSet(this, null, x)) {
        x = extra;
      }
    }
    return x;
  }

  /** The host the registry gave; made anew for an IPv4 address. */
  public String host() {
    Extra x = extra;
    if (x != null && x.host != null) {
      return x.host;
    }
    int a = ipv4;
    return (a >>> 24) + "." + (a >>> 16 & 0xff) + '.' + (a >>> 8 & 0xff) + '.' + (a & 0xff);
  }

  private String otherHost() {
    Extra x = extra;
    return x == null ? null : x.host;
  }

  int slot() {
    return slotAndMark & ~MARK;
  }

  void slot(int slot) {
    slotAndMark = slot | (slotAndMark & MARK);
  }

  /** Marks it seen in the list being applied; returns whether it was already. Under the directory's lock. */
  boolean mark() {
    boolean was = slotAndMark < 0;
    slotAndMark |= MARK;
    return was;
  }

  /** Clears the mark; returns whether it was set. Under the directory's lock. */
  boolean unmark() {
    boolean was = slotAndMark < 0;
    slotAndMark &= ~MARK;
    return was;
  }

  /** Its calls and ejection state when outlier detection is on, else null. */
  OutlierStats outlier() {
    Extra x = extra;
    return x == null ? null : x.outlier;
  }

  /** Its latency when the client balances by peak EWMA, else null. */
  RttEstimate rtt() {
    Extra x = extra;
    return x == null ? null : x.rtt;
  }

  /**
   * The connection to this instance, opened through {@code connector} on first use (even after the
   * instance was removed: a call that picked it just before goes on, and the connection closes when
   * its last call ends).
   */
  Connection connection(Connector connector) {
    Extra x = extra();
    Connection c = x.connection;
    if (c != null) {
      return c;
    }
    synchronized (this) {
      if (x.connection == null) {
        x.connection = connector.connect(InetSocketAddress.createUnresolved(host(), port));
      }
      return x.connection;
    }
  }

  /**
   * Marks it gone: balancers pass it over from now on, and its connection closes once its calls in
   * flight have ended, so a provider that withdraws before draining loses none of them.
   */
  void remove() {
    int s;
    do {
      s = state;
      if (s < 0) {
        return;
      }
    } while (!STATE.compareAndSet(this, s, s | REMOVED));
    if (s == 0) {
      closeConnection();
    }
  }

  /** Whether calls are in flight on a connection that {@link #remove} left open for them. */
  boolean isDraining() {
    Extra x = extra;
    return isRemoved() && x != null && x.connection != null && !x.connectionClosed;
  }

  /** Closes its connection now; calls in flight there fail with UNAVAILABLE. Idempotent. */
  void closeConnection() {
    Extra x = extra;
    if (x == null) {
      return;
    }
    Connection c;
    synchronized (this) {
      c = x.connection;
      if (c == null || x.connectionClosed) {
        return;
      }
      x.connectionClosed = true;
    }
    c.close();
  }

  boolean isRemoved() {
    return state < 0;
  }

  /** Whether its connection is up (false before the first call). */
  boolean hasActiveConnection() {
    Connection c = openConnection();
    return c != null && c.isActive();
  }

  Connection openConnection() {
    Extra x = extra;
    return x == null ? null : x.connection;
  }

  /**
   * When the instance started (epoch ms), kept while it warms up, so that a weight the dynamic configuration
   * gives it warms up too; 0 if unknown, or if it was warm when its registry last told it.
   */
  long startTimeMillis() {
    Extra x = extra;
    return x == null ? 0 : x.startTimeMillis;
  }

  /** Keeps the start time of a warming instance. Under the directory's lock. */
  void startTimeMillis(long startTimeMillis) {
    if (startTimeMillis != startTimeMillis()) {
      extra().startTimeMillis = startTimeMillis;
    }
  }

  /** A call here failed with UNAVAILABLE: balancers pass it over for a while if they can. */
  void markFailed() {
    long now = System.nanoTime();
    extra().failedAtNanos = now == 0 ? 1 : now;
  }

  /** A call here succeeded. */
  void markHealthy() {
    Extra x = extra;
    if (x != null && x.failedAtNanos != 0) {
      x.failedAtNanos = 0;
    }
  }

  /** Whether a call here failed with UNAVAILABLE in the last second; a volatile read or two when it did not. */
  boolean failedRecently() {
    Extra x = extra;
    if (x == null) {
      return false;
    }
    long failedAt = x.failedAtNanos;
    return failedAt != 0 && System.nanoTime() - failedAt < FAILURE_PENALTY_NANOS;
  }

  /** Counts a call here that ended with {@code code}, for outlier detection if it is on. */
  void recordOutcome(io.triplerpc.Status.Code code) {
    OutlierStats stats = outlier();
    if (stats != null) {
      stats.record(code);
    }
  }

  /** Whether outlier detection took it out of rotation for now. */
  boolean isEjected() {
    OutlierStats stats = outlier();
    return stats != null && stats.isEjected();
  }

  int active() {
    return state & ~REMOVED;
  }

  void callStarted() {
    STATE.incrementAndGet(this);
  }

  void callEnded() {
    if (STATE.decrementAndGet(this) == REMOVED) {
      closeConnection();
    }
  }

  /** Whether it is at {@code host:port}, where {@code ipv4} is {@link #ipv4(String) ipv4(host)}. */
  boolean matches(long ipv4, String host, int port) {
    if (this.port != port) {
      return false;
    }
    if (ipv4 >= 0) {
      // Another host's ipv4 is 0: compare it first, and look at the other host only on a match.
      return this.ipv4 == (int) ipv4 && otherHost() == null;
    }
    return host.equals(otherHost());
  }

  boolean matches(String host, int port) {
    return matches(ipv4(host), host, port);
  }

  /** The hash of its address, as {@link #hash(long, String, int)} gives it. */
  int hash() {
    String other = otherHost();
    return other == null ? mix(ipv4, port) : mix(other.hashCode(), port);
  }

  /** The hash of {@code host:port}, where {@code ipv4} is {@link #ipv4(String) ipv4(host)}. */
  static int hash(long ipv4, String host, int port) {
    return mix(ipv4 >= 0 ? (int) ipv4 : host.hashCode(), port);
  }

  static int hash(String host, int port) {
    return hash(ipv4(host), host, port);
  }

  /**
   * Like the baseline's {@code String} hash: neighbouring addresses (10.0.0.1, 10.0.0.2, ...) get
   * neighbouring hashes, so a list of them fills neighbouring index slots, sparing cache misses; the
   * index takes the hash modulo an odd table size, which spreads the high bits too.
   */
  private static int mix(int host, int port) {
    int h = host * 31 + port;
    return h ^ (h >>> 16);
  }

  /** {@code host:port}. */
  public String address() {
    String host = host();
    return host.indexOf(':') >= 0 ? '[' + host + "]:" + port : host + ':' + port;
  }

  /** The weight the registry gave it. */
  public int weight() {
    return weight;
  }

  @Override
  public String toString() {
    return "Endpoint{" + address() + ", weight=" + weight + ", active=" + active() + '}';
  }
}
