package io.triplerpc;

import java.net.SocketAddress;
import java.security.Principal;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The call a service method is handling, for methods that need more than their arguments: request
 * headers, response headers and trailers, cancellation, the time left, compression, who is calling.
 *
 * <p>Available through {@link #current()} on the thread that runs a service method, while it runs
 * (and while a request observer it returned receives a value), and on threads the service hands work to
 * through {@link #wrap(Executor)}. Not thread-safe.
 *
 * <p>Calls a service makes while it handles a call inherit its deadline (their own, if shorter, still
 * applies) and are cancelled when the call ends or is cancelled, as with grpc-java's {@code Context};
 * {@link CallOptions#withoutPropagation()} opts a call out.
 */
public abstract class ServerContext {

  private static final ThreadLocal<ServerContext> CURRENT = new ThreadLocal<>();

  protected ServerContext() {}

  /**
   * The context of the call this thread is handling.
   *
   * @throws IllegalStateException outside a service method
   */
  public static ServerContext current() {
    ServerContext context = CURRENT.get();
    if (context == null) {
      throw new IllegalStateException("ServerContext.current() called outside a service method");
    }
    return context;
  }

  /**
   * {@code executor}, running each task with the context current where the task was handed to it (if
   * any): so that calls a service makes on its own threads still inherit the call's deadline and
   * cancellation, as they do on the service thread.
   */
  public static Executor wrap(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    return task -> executor.execute(wrap(task));
  }

  /** {@code task}, to run with the context current now (if any) current while it runs, on any thread. */
  public static Runnable wrap(Runnable task) {
    Objects.requireNonNull(task, "task");
    ServerContext captured = CURRENT.get();
    if (captured == null) {
      return task;
    }
    return () -> {
      ServerContext previous = attach(captured);
      try {
        task.run();
      } finally {
        detach(previous);
      }
    };
  }

  /** The context current on this thread, or null: for subclasses that propagate it. */
  protected static ServerContext peek() {
    return CURRENT.get();
  }

  /**
   * Makes {@code context} current on this thread and returns the one it replaces (may be null); where it
   * is current already, nothing is written.
   */
  protected static ServerContext attach(ServerContext context) {
    ServerContext previous = CURRENT.get();
    if (previous != context) {
      CURRENT.set(context);
    }
    return previous;
  }

  /** Restores {@code previous}, as returned by {@link #attach}. */
  protected static void detach(ServerContext previous) {
    // set(null), not remove(): removing clears the entry's weak reference, a native call on every call
    // (1% of the event loop's time per call under h2load); an entry holding null keeps nothing alive.
    CURRENT.set(previous);
  }

  /** The method being called. */
  public abstract MethodDescriptor<?, ?> method();

  /** The request headers (without the reserved HTTP/2 and gRPC ones). */
  public abstract Metadata requestHeaders();

  /** Headers to send with the response; changes count until the first response goes out. */
  public abstract Metadata responseHeaders();

  /** Trailers to send when the call ends. */
  public abstract Metadata responseTrailers();

  /** Whether the client cancelled, its deadline passed or its connection dropped. */
  public abstract boolean isCancelled();

  /** Nanoseconds left before the client's deadline, or {@link Long#MAX_VALUE} if it set none. */
  public abstract long remainingNanos();

  /** Whether the request message being handled arrived compressed. */
  public abstract boolean isRequestCompressed();

  /** Compresses responses with {@code encoding} (such as {@code "gzip"}) if the client accepts it. */
  public abstract void setResponseCompression(String encoding);

  /** Whether the following response messages are compressed; on by default. */
  public abstract void setMessageCompression(boolean enabled);

  /** The client's address, or null when unknown; the same as {@code peer().remoteAddress()}. */
  public abstract SocketAddress remoteAddress();

  /**
   * The connection the call arrived on: addresses, HTTP protocol, and with TLS the negotiated version
   * and cipher and the client's verified certificate chain.
   */
  public abstract PeerInfo peer();

  /**
   * Who makes the call, as the server's {@link Authenticator} established it before the service
   * (and its interceptors) saw the call; null when the server has no {@link AccessPolicy}, or the
   * method is open to unauthenticated callers.
   */
  public abstract Principal principal();

  /**
   * Calls {@code listener} once when the call ends, with its final status: the one it was closed with,
   * once the response went out, or why it ended early (the client cancelled, the deadline passed, the
   * connection was lost). It runs on a transport thread, so it must be quick and must not block; at
   * once, on this thread, if the call already ended. For instrumentation that must see every end
   * without waiting for the service's executor; what it throws is logged and dropped.
   */
  public abstract void addEndListener(Consumer<Status> listener);
}
