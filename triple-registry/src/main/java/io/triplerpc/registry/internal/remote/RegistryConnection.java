package io.triplerpc.registry.internal.remote;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.remote.RemoteRegistry;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one Triple connection to a registry server that a {@code RemoteRegistry}'s provider side and
 * consumer side share. It is replaced when it stalls (a dead peer behind an open-looking socket): a
 * heartbeat that times out, or a subscription that hears nothing. Thread-safe.
 */
public final class RegistryConnection {

  /** Logs as {@code RemoteRegistry}, the class whose log level users set. */
  private static final Logger log = LoggerFactory.getLogger(RemoteRegistry.class);

  /**
   * A client to the server and its proxies.
   *
   * @param calls unary calls, each with the call timeout
   * @param streams subscription streams, without a deadline
   */
  public record Proxies(TripleClient client, RegistryService calls, RegistryService streams) {}

  private final String target;
  private final Supplier<TripleClient> clients;
  private final Duration callTimeout;
  private final BooleanSupplier closed;
  /** The current connection; replaced when it stalls (a dead peer behind an open-looking socket). */
  private volatile Proxies current;

  /**
   * A connection to {@code target} through a client from {@code clients}, made now (it connects on
   * its first call); once {@code closed} is true it is no longer replaced.
   */
  public RegistryConnection(String target, Supplier<TripleClient> clients, Duration callTimeout,
      BooleanSupplier closed) {
    this.target = target;
    this.clients = clients;
    this.callTimeout = callTimeout;
    this.closed = closed;
    this.current = newProxies();
  }

  private Proxies newProxies() {
    TripleClient client = clients.get();
    return new Proxies(client,
        client.proxy(RegistryService.class, CallOptions.DEFAULT.withTimeout(callTimeout)),
        client.proxy(RegistryService.class, CallOptions.DEFAULT));
  }

  /** The current connection's client and proxies, which belong together. */
  public Proxies current() {
    return current;
  }

  /** Unary calls on the current connection. */
  public RegistryService calls() {
    return current.calls();
  }

  /** Subscription streams on the current connection. */
  public RegistryService streams() {
    return current.streams();
  }

  /**
   * Replaces the connection whose stream proxy is {@code stale}, unless that happened already: calls
   * on it fail and are retried on the new one.
   */
  public void replace(RegistryService stale) {
    Proxies old;
    synchronized (this) {
      old = current;
      if (closed.getAsBoolean() || old.streams() != stale) {
        return;
      }
      current = newProxies();
    }
    log.warn("Connection to registry {} stalled; opening a new one", target);
    old.client().close();
  }

  /** Closes the current connection. */
  public void close() {
    current.client().close();
  }
}
