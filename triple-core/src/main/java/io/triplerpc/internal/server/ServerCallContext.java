package io.triplerpc.internal.server;

import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.PeerInfo;
import io.triplerpc.ServerContext;
import java.net.SocketAddress;
import java.security.Principal;
import io.triplerpc.Status;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ServerContext} of one call; touched only on the call's executor, except its cancellation,
 * deadline and end listeners, which calls made for it use from any thread.
 */
public final class ServerCallContext extends ServerContext {

  private static final Logger log = LoggerFactory.getLogger(ServerCallContext.class);

  private final ServerCallImpl<?, ?> call;
  private final Metadata requestHeaders;
  /** The clock deadlines are counted by (the stream's). */
  private final LongSupplier clock;
  /** {@link #clock}'s time of the deadline, or Long.MAX_VALUE for none. */
  private final long deadlineNanoTime;
  private Metadata responseHeaders;
  private Metadata responseTrailers;
  private boolean requestCompressed;
  /** Set once the call was authenticated, before the handler starts. */
  private Principal principal;
  /** What to run when the call ends: the cancellation of calls made for it. Guarded by this. */
  private Set<Runnable> endListeners;
  /** What to tell the call's final status when it ends: instrumentation. Guarded by this. */
  private List<Consumer<Status>> statusListeners;
  /** How the call ended; null until it did. Guarded by this. */
  private Status endStatus;
  private boolean ended;
  /** Set before the call starts, on the event loop that also ends it; see {@link #onEnd}. */
  private Runnable onEnd;
  /** The method's counters, told how the call ended; null when calls are not counted. Set as {@link #onEnd}. */
  private MethodCounters counters;

  ServerCallContext(ServerCallImpl<?, ?> call, Metadata requestHeaders, long timeoutNanos, LongSupplier clock) {
    this.call = call;
    this.requestHeaders = requestHeaders;
    this.clock = clock;
    this.deadlineNanoTime = timeoutNanos > 0 ? clock.getAsLong() + timeoutNanos : Long.MAX_VALUE;
  }

  /** The context of the server call this thread handles (or was handed work by), or null. */
  public static ServerCallContext currentOrNull() {
    ServerContext current = peek();
    return current instanceof ServerCallContext ? (ServerCallContext) current : null;
  }

  /**
   * Runs {@code listener} when this call ends (cancelled, past its deadline, or completed), once; at once
   * if it has. For calls made while handling it.
   */
  public void whenEnded(Runnable listener) {
    synchronized (this) {
      if (!ended) {
        if (endListeners == null) {
          endListeners = new LinkedHashSet<>();
        }
        endListeners.add(listener);
        return;
      }
    }
    listener.run();
  }

  /** Forgets {@code listener}, whose call ended first. */
  public synchronized void forget(Runnable listener) {
    if (endListeners != null) {
      endListeners.remove(listener);
    }
  }

  @Override
  public void addEndListener(Consumer<Status> listener) {
    Status status;
    synchronized (this) {
      if (!ended) {
        if (statusListeners == null) {
          statusListeners = new ArrayList<>(2);
        }
        statusListeners.add(listener);
        return;
      }
      status = endStatus;
    }
    listener.accept(status);
  }

  /** Runs {@code task} once when the call ends; set before the call starts. */
  void onEnd(Runnable task) {
    this.onEnd = task;
  }

  /** Tells {@code counters} how the call ends; set before the call starts. */
  void countIn(MethodCounters counters) {
    this.counters = counters;
  }

  /**
   * The call ended with {@code status}: runs {@link #onEnd}, tells the calls made for it and the
   * listeners of its status, once.
   */
  void ended(Status status) {
    Runnable[] listeners;
    List<Consumer<Status>> toTell;
    synchronized (this) {
      if (ended) {
        return;
      }
      ended = true;
      endStatus = status;
      listeners = endListeners == null ? null : endListeners.toArray(new Runnable[0]);
      endListeners = null;
      toTell = statusListeners;
      statusListeners = null;
    }
    if (counters != null) {
      counters.ended(status.code());
    }
    if (onEnd != null) {
      onEnd.run();
    }
    if (listeners != null) {
      for (Runnable listener : listeners) {
        listener.run();
      }
    }
    if (toTell != null) {
      for (Consumer<Status> listener : toTell) {
        try {
          listener.accept(status);
        } catch (RuntimeException e) {
          log.warn("End listener of {} failed", call.method().fullMethodName(), e);
        }
      }
    }
  }

  /**
   * Makes this context current on the calling thread; returns the one to restore. Entering it where it
   * is current already (a unary call's callbacks, run as one task) costs one read and no write.
   */
  ServerContext enter() {
    return attach(this);
  }

  void exit(ServerContext previous) {
    if (previous != this) {
      detach(previous);
    }
  }

  void setPrincipal(Principal principal) {
    this.principal = principal;
  }

  void setRequestCompressed(boolean compressed) {
    this.requestCompressed = compressed;
  }

  /** Response headers set by the service so far, or null if none. */
  Metadata takeResponseHeaders() {
    Metadata headers = responseHeaders;
    responseHeaders = null;
    return headers;
  }

  /** Response trailers set by the service so far, or null if none. */
  Metadata takeResponseTrailers() {
    Metadata trailers = responseTrailers;
    responseTrailers = null;
    return trailers;
  }

  @Override
  public MethodDescriptor<?, ?> method() {
    return call.method();
  }

  @Override
  public Metadata requestHeaders() {
    return requestHeaders;
  }

  @Override
  public Metadata responseHeaders() {
    if (responseHeaders == null) {
      responseHeaders = new Metadata();
    }
    return responseHeaders;
  }

  @Override
  public Metadata responseTrailers() {
    if (responseTrailers == null) {
      responseTrailers = new Metadata();
    }
    return responseTrailers;
  }

  @Override
  public boolean isCancelled() {
    return call.isCancelled();
  }

  @Override
  public long remainingNanos() {
    return deadlineNanoTime == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanoTime - clock.getAsLong();
  }

  @Override
  public boolean isRequestCompressed() {
    return requestCompressed;
  }

  @Override
  public void setResponseCompression(String encoding) {
    call.setCompression(encoding);
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    call.setMessageCompression(enabled);
  }

  @Override
  public SocketAddress remoteAddress() {
    return call.remoteAddress();
  }

  @Override
  public PeerInfo peer() {
    return call.peer();
  }

  @Override
  public Principal principal() {
    return principal;
  }
}
