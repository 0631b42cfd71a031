package io.triplerpc.transport.netty.internal.server;

import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.transport.netty.internal.OutboundBacklog;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The response bytes all of a server's connections (HTTP/2, and HTTP/3's beside them) hold for clients that have
 * not taken them:
 * the sum of their {@link OutboundBacklog}s, against the server-wide limit
 * ({@code maxTotalPendingOutboundBytes}). Each connection publishes its own count when a flush ends,
 * after the socket took what it could, so the shared counter moves only when a connection ends a
 * flush holding another amount than after its previous one; a client that reads leaves nothing behind
 * and never moves it. Past the limit, the connections holding the most are refused (they go away as a
 * connection past its own limit does), as many as it takes to come back under the limit, and no other
 * is touched. A large message (a gRPC message of {@link #RESERVED_FROM} bytes or more) is counted by the
 * thread that makes it, before it is made when its size is known first, else as soon as it is made, so that messages waiting in connections' write queues are
 * not left out: responses made faster than event loops hand them on would pass the limit unseen; and past
 * the limit, a connection that already has one waiting gets no other. From half the limit on, every
 * stream reports it is not ready, until the total falls back to a quarter. Thread-safe.
 */
public final class ServerBacklog {

  /**
   * Messages this large are counted when made, one atomic addition each; smaller ones (the calls that
   * must cost nothing more) when their connection flushes. A stream with this much waiting is not ready.
   */
  static final int RESERVED_FROM = OutboundReadiness.THRESHOLD;
  /** In {@link Share#reserved} once the connection left: what is reserved after that is not counted. */
  private static final long GONE = Long.MIN_VALUE / 2;

  /** What the server does to one connection. Both run on the connection's event loop. */
  public interface Connection {

    /** Past the server-wide limit, this connection holds the most: it goes away. */
    void refuse(String reason);

    /** The server's backlog fell back to a quarter of its limit: streams held back may write again. */
    void decongested();
  }

  private final long limit;
  /** The sum of every joined connection's {@link Share#published}. */
  private final AtomicLong total = new AtomicLong();
  private final Set<Share> shares = ConcurrentHashMap.newKeySet();
  /** Whether the total passed half the limit and has not fallen to a quarter since. */
  private final AtomicBoolean congested = new AtomicBoolean();

  /** @param limit bytes; 0 for no limit (the total is still counted) */
  ServerBacklog(long limit) {
    this.limit = limit;
  }

  /**
   * The backlog of the server whose TCP transport is {@code tcp}, which the server's other transports share; a
   * backlog of their own, against {@code limit}, when {@code tcp} is not this module's.
   */
  public static ServerBacklog of(ServerTransport tcp, long limit) {
    return tcp instanceof NettyServerTransport netty ? netty.backlog() : new ServerBacklog(limit);
  }

  /** A new connection's share, to publish its backlog in; {@code eventLoop} is the connection's. */
  public Share join(Executor eventLoop, Connection connection) {
    Share share = new Share(eventLoop, connection);
    shares.add(share);
    return share;
  }

  /** Bytes held across connections, as last published. */
  long bytes() {
    return total.get();
  }

  public long limit() {
    return limit;
  }

  /** Whether streams should hold their messages back: the server holds half its limit or more. Any thread. */
  public boolean congested() {
    return congested.get();
  }

  private void changed(long delta, long now) {
    if (limit == 0) {
      return;
    }
    if (delta > 0 && now >= limit >> 1) {
      if (!congested.get()) {
        congested.compareAndSet(false, true);
      }
    } else if (delta < 0 && now <= limit >> 2 && congested.compareAndSet(true, false)) {
      for (Share share : shares) {
        share.eventLoop.execute(share.connection::decongested);
      }
    }
    if (now > limit) {
      reclaim();
    }
  }

  /**
   * Refuses the connections holding the most until what the others hold is within the limit. Connections
   * refused before and not yet gone count as gone. Rare (the limit was passed), so a lock and a scan of
   * every connection are fine; two event loops past the limit at once must not both refuse a connection
   * for the same excess.
   */
  private synchronized void reclaim() {
    long excess = total.get() - limit;
    for (Share share : shares) {
      if (share.refused) {
        excess -= share.held();
      }
    }
    while (excess > 0) {
      Share heaviest = null;
      for (Share share : shares) {
        if (!share.refused && share.held() > 0 && (heaviest == null || share.held() > heaviest.held())) {
          heaviest = share;
        }
      }
      if (heaviest == null) {
        return;
      }
      heaviest.refused = true;
      long held = heaviest.held();
      excess -= held;
      String reason = held + " of the server's " + total.get() + " bytes of responses waiting (server limit "
          + limit + ")";
      Share refused = heaviest;
      refused.eventLoop.execute(() -> refused.connection.refuse(reason));
    }
  }

  /** One connection's part of the total; published on its event loop. */
  public final class Share {

    private final Executor eventLoop;
    private final Connection connection;
    /** What this connection held after its last flush; written on its event loop, read by any connection's. */
    private volatile long published;
    /** Large messages made for this connection and not yet handed to HTTP/2; {@link #GONE} and less once it left. */
    private final AtomicLong reserved = new AtomicLong();
    /** Whether the server refused this connection and counts it as gone. Written under the {@link ServerBacklog}'s lock. */
    private volatile boolean refused;
    /** Whether the connection closed and took its part out; event loop only. */
    private boolean left;

    private Share(Executor eventLoop, Connection connection) {
      this.eventLoop = eventLoop;
      this.connection = connection;
    }

    /** What this connection holds, as far as the server knows. Any thread. */
    private long held() {
      return published + Math.max(0, reserved.get());
    }

    /**
     * A message of {@code size} bytes, at least {@link #RESERVED_FROM}, was made for this connection. Any
     * thread.
     *
     * @return false if the connection was refused or is gone, or the server is past its limit and this
     *     connection has a large message waiting already: the message is not counted, and
     *     should be dropped at once rather than wait for the connection's event loop to close it (which,
     *     with the service threads making messages faster than it runs, may take a while)
     */
    boolean reserve(int size) {
      if (refused) {
        return false;
      }
      if (limit != 0 && total.get() + size > limit && held() >= RESERVED_FROM) {
        // Past the limit (what refused connections held stays in memory until their event loops close
        // them), a connection has one large message waiting at most: one whose client has not taken the
        // last, or whose event loop has not handed it on yet, gets no more, so that the total does not
        // grow by what services make meanwhile. A client that reads holds next to nothing between its
        // messages and is served.
        return false;
      }
      if (reserved.getAndAdd(size) < 0) {
        return false;
      }
      changed(size, total.addAndGet(size));
      return true;
    }

    /** A reserved message was dropped before it reached HTTP/2. Any thread. */
    void unreserve(int size) {
      if (reserved.getAndAdd(-size) >= 0) {
        changed(-size, total.addAndGet(-size));
      }
    }

    /**
     * A reserved message went to HTTP/2, where the connection's own backlog counts it: it moves to what
     * the connection publishes, and the total stays. Event loop.
     */
    void handedOn(int size) {
      if (reserved.getAndAdd(-size) >= 0 && !left) {
        published += size;
      }
    }

    /** After a flush: this connection now holds {@code held} bytes. Touches nothing shared if that did not change. */
    public void publish(long held) {
      long delta = held - published;
      if (delta == 0 || left) {
        return;
      }
      published = held;
      changed(delta, total.addAndGet(delta));
    }

    /** The connection closed: its part leaves the total, for good. */
    public void leave() {
      if (left) {
        return;
      }
      left = true;
      shares.remove(this);
      long delta = -published - Math.max(0, reserved.getAndSet(GONE));
      published = 0;
      if (delta != 0) {
        changed(delta, total.addAndGet(delta));
      }
    }
  }
}
