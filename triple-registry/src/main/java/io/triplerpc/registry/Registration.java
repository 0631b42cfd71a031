package io.triplerpc.registry;

import io.triplerpc.registry.internal.LocalHost;
import io.triplerpc.registry.internal.ProviderConfigurators;
import io.triplerpc.registry.internal.Threads;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.spi.ServerRegistration;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
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
  /** The rules whose dynamic configuration this provider obeys, or null for none. */
  private final RuleSource rules;
  /** The server registered, once started; guarded by this. */
  private ServerInfo server;
  /** The instance as it started, before the rules' overrides; guarded by this. */
  private ServiceInstance base;
  /** Watches the rules once started; guarded by this. */
  private ProviderConfigurators configurators;
  /** What the rules in force make of the instance; guarded by this. */
  private ProviderConfigurators.Effect effect = ProviderConfigurators.Effect.NONE;
  /** The effect the registered instance reflects; guarded by this. */
  private ProviderConfigurators.Effect appliedEffect = ProviderConfigurators.Effect.NONE;
  /** Whether the first registration is done, so that rule changes are published; guarded by this. */
  private boolean live;
  /** Whether the rules disable every service, so that the instance is not registered; guarded by this. */
  private boolean withdrawnByRules;
  /** The publications of rule changes, one after the other; guarded by {@link #updateLock}. */
  private CompletableFuture<Void> updates = CompletableFuture.completedFuture(null);
  private final Object updateLock = new Object();
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
    this.rules = builder.rules;
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
    String advertised = advertisedHost(server.localAddress());
    ServiceInstance base = ServiceInstance.of(application, advertised, server.localAddress().getPort(),
        MetadataInfo.of(application, server.services()).revision()).withWeight(weight)
        .withStartTime(System.currentTimeMillis());
    synchronized (this) {
      this.server = server;
      this.base = base;
      if (rules != null && configurators == null) {
        configurators = new ProviderConfigurators(rules, application, server.services(), advertised,
            server.localAddress().getPort(), this::overridden);
      }
    }
    try {
      register(server, base);
    } finally {
      ProviderConfigurators.Effect missed;
      synchronized (this) {
        live = true;
        missed = effect.equals(appliedEffect) ? null : effect;
      }
      if (missed != null) {
        overridden(missed);
      }
    }
  }

  /** The first registration of {@code base}, as the rules in force make it. */
  private void register(ServerInfo server, ServiceInstance base) {
    ProviderConfigurators.Effect effect;
    synchronized (this) {
      effect = this.effect;
      appliedEffect = effect;
    }
    MetadataInfo metadata = metadataOf(server, effect);
    synchronized (this) {
      withdrawnByRules = metadata == null;
    }
    if (metadata == null) {
      instance = base;
      log.warn("{}: the dynamic configuration disables every service of {}: not registered", application, base);
      return;
    }
    ServiceInstance registered = applied(base, metadata, effect);
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

  /**
   * The metadata of {@code server}'s services but those the rules disable; null if they disable them all.
   */
  private MetadataInfo metadataOf(ServerInfo server, ProviderConfigurators.Effect effect) {
    if (effect.disabled().isEmpty()) {
      return MetadataInfo.of(application, server.services());
    }
    List<ServerInfo.Service> enabled = new ArrayList<>(server.services());
    enabled.removeAll(effect.disabled());
    return enabled.isEmpty() ? null : MetadataInfo.of(application, enabled);
  }

  /** {@code base} with the revision of {@code metadata} and the weight the rules give, if any. */
  private static ServiceInstance applied(ServiceInstance base, MetadataInfo metadata,
      ProviderConfigurators.Effect effect) {
    ServiceInstance applied = base.withRevision(metadata.revision());
    return effect.weight() >= 0 ? applied.withWeight(effect.weight()) : applied;
  }

  /**
   * The rules now make {@code effect} of this instance: once registered, it is published again (the metadata,
   * then the instance), or withdrawn if every service is disabled, after the updates before it; while
   * offline, it is kept for {@link #online}. On the rule source's thread; never blocks.
   */
  private void overridden(ProviderConfigurators.Effect effect) {
    ServerInfo server;
    ServiceInstance before;
    ServiceInstance after;
    MetadataInfo metadata;
    boolean wasWithdrawn;
    synchronized (this) {
      this.effect = effect;
      if (!live || base == null) {
        return; // started() registers it as the rules say.
      }
      appliedEffect = effect;
      server = this.server;
      before = instance;
      metadata = metadataOf(server, effect);
      after = metadata == null ? before : applied(base, metadata, effect);
      instance = after;
      wasWithdrawn = withdrawnByRules;
      withdrawnByRules = metadata == null;
      if (stopped) {
        return;
      }
    }
    log.info("{}: the dynamic configuration makes the instance {}", application,
        metadata == null ? "withdrawn (every service disabled)" : after + " serving " + metadata.services().size()
            + " of " + server.services().size() + " services");
    MetadataInfo published = metadata;
    synchronized (updateLock) {
      updates = updates.handle((done, failure) -> null).thenCompose(ignored -> {
        if (published == null) {
          return wasWithdrawn ? CompletableFuture.completedFuture(null) : registry.unregister(before);
        }
        return registry.publishMetadata(published).thenCompose(done -> registry.register(after));
      }).whenComplete((done, failure) -> {
        if (failure != null) {
          log.warn("{}: could not publish what the dynamic configuration makes of {}: {}", application, after,
              failure.toString());
        }
      });
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
    MetadataInfo metadata;
    synchronized (this) {
      stopped = false;
      metadata = metadataOf(server, effect);
      if (metadata == null) {
        withdrawnByRules = true;
        log.warn("{}: the dynamic configuration disables every service of {}: not registered", application,
            registered);
        return;
      }
      withdrawnByRules = false;
      if (base != null) {
        registered = applied(base, metadata, effect);
        instance = registered;
      }
    }
    ServiceInstance again = registered;
    IllegalStateException failure = failureOf(publish(metadata, server)
        .thenCompose(published -> registry.register(again)), "register");
    if (failure == null) {
      log.info("Registered {} again", again);
      return;
    }
    log.warn("{}; retried every {} s", failure.getMessage(), RETRY_SECONDS);
    retryLater(metadata, server, again);
  }

  @Override
  public void stopping(ServerInfo server) {
    synchronized (this) {
      if (configurators != null) {
        configurators.close();
      }
    }
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
    boolean withdrawn;
    synchronized (this) {
      withdrawn = withdrawnByRules;
    }
    if (registered == null || withdrawn) {
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
    return LocalHost.address();
  }

  /** Builds a {@link Registration}. Not thread-safe. */
  public static final class Builder {

    private final Registry registry;
    private String application;
    private String host;
    private int weight = ServiceInstance.DEFAULT_WEIGHT;
    private Duration timeout = Duration.ofSeconds(10);
    private boolean required;
    private RuleSource rules;

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

    /**
     * Obeys the dynamic configuration in {@code rules} (Apache Dubbo's, as Dubbo Admin writes it) for
     * providers: items with {@code side: provider} of the application's {@code <application>.configurators}
     * and of each service's {@code <service>:<version>:<group>.configurators} that name this instance. A
     * {@code weight} becomes the instance's registered weight; services made {@code disabled} leave the
     * published metadata (a new revision), and with all of them the instance leaves the registry; both come
     * back when the rule goes. Read live; none by default. The source is not closed with the server.
     */
    public Builder rules(RuleSource rules) {
      this.rules = Objects.requireNonNull(rules, "rules");
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
