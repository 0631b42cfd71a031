package io.triplerpc.transport.netty.internal.client;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's keepalive time, shared by its connections: a server that answers GOAWAY
 * "too_many_pings" doubles it for the connections opened after, as grpc-java's client does. Thread-safe.
 */
final class KeepAliveTime {

  private static final Logger log = LoggerFactory.getLogger(KeepAliveTime.class);

  private final AtomicLong nanos;

  KeepAliveTime(long nanos) {
    this.nanos = new AtomicLong(nanos);
  }

  /** The time for a new connection, in nanoseconds; {@code KeepAlive.OFF} for none. */
  long nanos() {
    return nanos.get();
  }

  /**
   * A server found the pings of a connection that used {@code usedNanos} too frequent. Doubles the
   * time once per such connection: several connections refused together double it once.
   */
  void tooManyPings(long usedNanos) {
    long doubled = usedNanos > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : usedNanos * 2;
    if (nanos.compareAndSet(usedNanos, doubled)) {
      log.warn("A server found keepalive pings every {} ms too frequent (GOAWAY too_many_pings); now every {} ms",
          usedNanos / 1_000_000, doubled / 1_000_000);
    }
  }
}
