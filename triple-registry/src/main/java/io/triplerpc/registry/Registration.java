package io.triplerpc.registry;

import io.triplerpc.registry.internal.Threads;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.spi.ServerRegistration;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a server in a {@link Registry} as one instance of an application: on start it publishes
 * the metadata of what the server serves (once per revision), maps each service to the application,
 * then registers the instance; on shutdown it unregisters it before calls drain.
 *
 * <pre>{@code
 * TripleServer.builder()
 *     .addService(Greeter.class, new GreeterImpl())
 *     .registration(Registration.to(registry).application("greeter").build())
 *     .build().start();
 * }</pre>
 */
public final class Registration implements ServerRegistration {

  private static final Logger log = LoggerFactory.getLogger(Registration.class);

  private final Registry registry;
  private final String application;
  private final String host;
  private final int weight;
  private final Duration timeout;
  private final boolean required;
  private volatile ServiceInstance instance;
  /** Retries a registration that failed at start-up; null unless one did. Guarded by this. */
  private ScheduledExecutorService retries;
  private boolean stopped;

  private static final long RETRY_SECONDS = 2;

  private Registration(Builder builder) {
    this.registry = builder.registry;
    this.application = builder.application;
    this.host = builder.host;
    this.weight = builder.weight;
    this.timeout = builder.timeout;
    this.required = builder.required;
  }

  /** A builder registering into {@code registry}. */
  public static Builder to(Registry registry) {
    return new Builder(Objects.requireNonNull(registry, "registry"));
  }

  /** The instance registered (or being registered), or null before the server started. */
  public ServiceInstance instance() {
    return instance;
  }

  /**
   * Publishes the metadata, the mappings, then the instance, and waits for the registry to confirm.
   * If the registry fails or does not answer in time, the server starts anyway and the metadata,
   * mappings and instance are sent again every 2 s until the registry confirms them, unless
   * {@link Builder#required} asked for a failed start.
   *
   * @throws IllegalStateException if the registration is required and the registry failed
   */
  @Override
  public void started(ServerInfo server) {
    MetadataInfo metadata = MetadataInfo.of(application, server.services());
    ServiceInstance registered =
        ServiceInstance.of(application, advertisedHost(server.localAddress()), server.localAddress().getPort(),
            metadata.revision()).withWeight(weight).withStartTime(System.currentTimeMillis());
    instance = registered;
    // Metadata before the instance: a consumer that sees the instance can always read its revision.
    IllegalStateException failure = failureOf(publish(metadata, server), "publish the metadata of");
    // The instance is handed over even if publishing failed, so that a registry that reconnects
    // later has it to send again.
    CompletableFuture<Void> registering = registry.register(registered);
    if (failure == null) {
      failure = failureOf(registering, "register");
    }
    if (failure == null) {
      log.info("Registered {} serving {} services", registered, server.services().size());
      return;
    }
    if (required) {
      throw failure;
    }
    log.warn("{}; the server starts anyway, and the registration is retried every {} s",
        failure.getMessage(), RETRY_SECONDS);
    retryLater(metadata, server, registered);
  }

  private CompletableFuture<Void> publish(MetadataInfo metadata, ServerInfo server) {
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    writes.add(registry.publishMetadata(metadata));
    for (ServerInfo.Service service : server.services()) {
      writes.add(registry.map(service.name(), application));
    }
    return CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0]));
  }

  private IllegalStateException failureOf(CompletableFuture<?> future, String what) {
    try {
      await(future, what);
      return null;
    } catch (IllegalStateException e) {
      return e;
    }
  }

  /** Publishes and registers again until the registry confirms both, or the server stops. */
  private void retryLater(MetadataInfo metadata, ServerInfo server, ServiceInstance registered) {
    ScheduledExecutorService scheduler;
    synchronized (this) {
      if (stopped) {
        return;
      }
      if (retries == null) {
        retries = Executors.newSingleThreadScheduledExecutor(Threads.daemon("triple-registration-retry"));
      }
      scheduler = retries;
    }
    try {
      scheduler.schedule(() -> publish(metadata, server)
          .thenCompose(published -> registry.register(registered))
          .whenComplete((done, failure) -> {
            if (failure == null) {
              log.info("Registered {} after retrying", registered);
              stopRetrying();
            } else {
              retryLater(metadata, server, registered);
            }
          }), RETRY_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // Stopped meanwhile.
    }
  }

  private synchronized void stopRetrying() {
    if (retries != null) {
      retries.shutdownNow();
      retries = null;
    }
  }

  /** Unregisters the instance, keeping it to register again on {@link #online}. */
  @Override
  public void offline(ServerInfo server) {
    withdraw();
  }

  /**
   * Registers the instance again as it was at start, with its start time: a server that was offline for a
   * while is not new, and its warm-up does not start over. Retried every 2 s if the registry fails.
   */
  @Override
  public void online(ServerInfo server) {
    ServiceInstance registered = instance;
    if (registered == null) {
      started(server);
      return;
    }
    synchronized (this) {
      stopped = false;
    }
    MetadataInfo metadata = MetadataInfo.of(application, server.services());
    IllegalStateException failure = failureOf(publish(metadata, server)
        .thenCompose(published -> registry.register(registered)), "register");
    if (failure == null) {
      log.info("Registered {} again", registered);
      return;
    }
    log.warn("{}; retried every {} s", failure.getMessage(), RETRY_SECONDS);
    retryLater(metadata, server, registered);
  }

  @Override
  public void stopping(ServerInfo server) {
    withdraw();
  }

  private void withdraw() {
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
    }
    stopRetrying();
    ServiceInstance registered = instance;
    if (registered == null) {
      return;
    }
    try {
      await(registry.unregister(registered), "unregister");
    } catch (IllegalStateException e) {
      log.warn("{}; consumers drop it when its registration expires", e.getMessage());
    }
  }

  private void await(CompletableFuture<?> future, String what) {
    try {
      future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Could not " + what + " " + application + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("The registry did not answer within " + timeout + " to " + what + " " + application, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting to " + what + " " + application, e);
    }
  }

  private String advertisedHost(InetSocketAddress bound) {
    if (host != null) {
      return host;
    }
    InetAddress address = bound.getAddress();
    if (address != null && !address.isAnyLocalAddress()) {
      return address.getHostAddress();
    }
    return firstSiteAddress();
  }

  /** For a server bound to every interface: the first non-loopback IPv4 address, else loopback. */
  private static String firstSiteAddress() {
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
          continue;
        }
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
            return address.getHostAddress();
          }
        }
      }
    } catch (SocketException e) {
      log.warn("Could not list network interfaces ({}); advertising 127.0.0.1", e.toString());
    }
    return "127.0.0.1";
  }

  /** Builds a {@link Registration}. Not thread-safe. */
  public static final class Builder {

    private final Registry registry;
    private String application;
    private String host;
    private int weight = ServiceInstance.DEFAULT_WEIGHT;
    private Duration timeout = Duration.ofSeconds(10);
    private boolean required;

    private Builder(Registry registry) {
      this.registry = registry;
    }

    /** The application this server is an instance of; required. */
    public Builder application(String application) {
      this.application = Objects.requireNonNull(application, "application");
      return this;
    }

    /**
     * The host consumers should connect to; by default the address the server is bound to, or the
     * machine's first non-loopback IPv4 address when bound to all interfaces.
     */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The instance's weight for weighted balancing; {@value ServiceInstance#DEFAULT_WEIGHT} by default. */
    public Builder weight(int weight) {
      if (weight < 0) {
        throw new IllegalArgumentException("negative weight: " + weight);
      }
      this.weight = weight;
      return this;
    }

    /**
     * Whether a server whose registration fails (or is not confirmed within the timeout) fails to
     * start, instead of starting and leaving the registry to retry; false by default.
     */
    public Builder required(boolean required) {
      this.required = required;
      return this;
    }

    /**
     * How long start-up waits for the registry; 10 s by default.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder timeout(Duration timeout) {
      if (Objects.requireNonNull(timeout, "timeout").isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** The registration, to pass to {@code TripleServer.Builder.registration}. */
    public Registration build() {
      if (application == null || application.isEmpty()) {
        throw new IllegalStateException("application is required");
      }
      return new Registration(this);
    }
  }
}
