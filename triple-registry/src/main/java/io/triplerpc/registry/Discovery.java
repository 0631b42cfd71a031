package io.triplerpc.registry;

import io.triplerpc.registry.internal.ConsumerIdentity;
import io.triplerpc.registry.internal.DirectorySettings;
import io.triplerpc.registry.internal.Durations;
import io.triplerpc.registry.internal.LocalHost;
import io.triplerpc.registry.internal.PeakEwma;
import io.triplerpc.registry.internal.RegistryCluster;
import io.triplerpc.registry.internal.Snapshots;
import io.triplerpc.spi.AdminView;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.Connector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Finds a client's servers in a {@link Registry}: for each service called, the applications serving
 * it, then their instances as the registry pushes them, with calls spread by a {@link LoadBalancing}
 * and idempotent calls retried on another instance after UNAVAILABLE; optionally, instances that keep
 * failing ejected for a while ({@link Builder#outlierDetection}), and what it sees told to a
 * {@link DiscoveryObserver} ({@link Builder#observer}).
 *
 * <p>It is also an {@link AdminView} named {@code directories}: add it to an admin endpoint
 * ({@code TripleServer.Builder.adminView}) to see, for each client built with it, the services it calls, the
 * applications it subscribed to, and each endpoint's weight, warm-up share, outlier state and the tag rule
 * in force.
 *
 * <pre>{@code
 * TripleClient client = TripleClient.builder()
 *     .cluster(Discovery.using(registry).loadBalancing(LoadBalancing.POWER_OF_TWO_CHOICES).build())
 *     .build();
 * }</pre>
 */
public final class Discovery implements ClusterFactory, AdminView {

  private final Supplier<Registry> registries;
  private final boolean closeRegistry;
  private final DirectorySettings settings;
  private final Path snapshotDirectory;
  private final Map<String, String> applications;
  /** The governance rules obeyed, or null for none. */
  private final RuleSource rules;
  /** Who this consumer is to the rules' dynamic configuration. */
  private final ConsumerIdentity consumer;
  private final ScheduledExecutorService outlierScheduler;
  private final LongSupplier outlierClock;
  /** The clusters made and not yet seen closed, for {@link #snapshot()}. */
  private final Set<RegistryCluster> clusters = ConcurrentHashMap.newKeySet();

  private Discovery(Builder builder) {
    this.registries = builder.registries;
    this.closeRegistry = builder.registryPerClient || builder.closeRegistry;
    this.settings = new DirectorySettings(
        builder.balancing,
        builder.retries,
        builder.coalesceWindow.toNanos(),
        builder.snapshotDelay.toNanos(),
        builder.emptyProtection,
        builder.initialWait.toNanos(),
        (directory, changes) -> {},
        builder.outlierDetection,
        builder.balancing == LoadBalancing.PEAK_EWMA
            ? new PeakEwma(builder.peakEwmaDecay, PeakEwma.DEFAULT_RTT, builder.peakEwmaClock)
            : null,
        builder.observer,
        builder.observerClock,
        builder.hashKeyHeader,
        builder.hashNodes,
        builder.warmup.toMillis(),
        builder.warmupClock);
    this.outlierScheduler = builder.outlierScheduler;
    this.outlierClock = builder.outlierClock;
    this.snapshotDirectory = builder.snapshotDirectory;
    this.applications = Map.copyOf(builder.applications);
    this.rules = builder.rules;
    this.consumer = new ConsumerIdentity(builder.consumerApplication,
        builder.consumerHost != null ? builder.consumerHost : LocalHost.address());
  }

  /** A builder of discovery through {@code registry}, shared by every client made with it. */
  public static Builder using(Registry registry) {
    Objects.requireNonNull(registry, "registry");
    return new Builder(() -> registry, false);
  }

  /**
   * A builder of discovery through a registry of each client's own: {@code connect} is called once
   * per client built, and the registry it returns is closed with that client.
   */
  public static Builder connecting(Supplier<? extends Registry> connect) {
    Objects.requireNonNull(connect, "connect");
    return new Builder(connect::get, true);
  }

  @Override
  public Cluster newCluster(Connector connector) {
    Snapshots snapshots = snapshotDirectory == null ? null : new Snapshots(snapshotDirectory);
    Registry registry = Objects.requireNonNull(registries.get(), "the registry supplier returned null");
    RegistryCluster cluster = new RegistryCluster(registry, closeRegistry, connector, settings, snapshots,
        applications, outlierScheduler, outlierClock, rules, consumer);
    clusters.removeIf(RegistryCluster::isClosed);
    clusters.add(cluster);
    return cluster;
  }

  /** {@code directories}. */
  @Override
  public String name() {
    return "directories";
  }

  /**
   * {@code {"clients": [...]}}: for each open client built with this discovery, its {@code services} called
   * (applications serving each, endpoints), and its {@code subscriptions}: each application's endpoints
   * ({@code address}, {@code weight}, {@code effectiveWeight} and {@code warmupShare} while it warms up,
   * {@code ejected} by outlier detection, {@code failedRecently}, {@code connected}, {@code activeCalls}) and the
   * {@code tagRule} in force when rules are obeyed. Thread-safe; takes each application's lock briefly.
   */
  @Override
  public Object snapshot() {
    clusters.removeIf(RegistryCluster::isClosed);
    List<Map<String, Object>> clients = new ArrayList<>();
    for (RegistryCluster cluster : clusters) {
      clients.add(cluster.describe());
    }
    return Map.of("clients", clients);
  }

  /** Builds a {@link Discovery}. Not thread-safe. */
  public static final class Builder {

    private final Supplier<Registry> registries;
    private final boolean registryPerClient;
    private LoadBalancing balancing = LoadBalancing.WEIGHTED_RANDOM;
    private int retries = 2;
    private Duration coalesceWindow = Duration.ofMillis(20);
    private Duration snapshotDelay = Duration.ofSeconds(1);
    private boolean emptyProtection = true;
    private Duration initialWait = Duration.ofSeconds(3);
    private Path snapshotDirectory;
    private boolean closeRegistry;
    private final Map<String, String> applications = new HashMap<>();
    private RuleSource rules;
    private String consumerApplication;
    private String consumerHost;
    private OutlierDetection outlierDetection;
    private ScheduledExecutorService outlierScheduler;
    private LongSupplier outlierClock = System::nanoTime;
    private Duration peakEwmaDecay = PeakEwma.DEFAULT_DECAY;
    private LongSupplier peakEwmaClock = System::nanoTime;
    private DiscoveryObserver observer;
    private LongSupplier observerClock = System::nanoTime;
    private String hashKeyHeader;
    private int hashNodes = 160;
    private Duration warmup = Duration.ofMinutes(10);
    private LongSupplier warmupClock = System::currentTimeMillis;

    private Builder(Supplier<Registry> registries, boolean registryPerClient) {
      this.registries = registries;
      this.registryPerClient = registryPerClient;
    }

    /** How an instance is picked per call; {@link LoadBalancing#WEIGHTED_RANDOM} by default. */
    public Builder loadBalancing(LoadBalancing balancing) {
      this.balancing = Objects.requireNonNull(balancing, "balancing");
      return this;
    }

    /**
     * How fast {@link LoadBalancing#PEAK_EWMA} forgets: the time over which a latency estimate moves
     * toward faster calls ({@code w = exp(-elapsed / decay)}), and decays toward zero while an
     * instance is not called. 10 s by default, as Linkerd and Finagle. Shorter follows recoveries
     * sooner and tries a slow instance again sooner (its peak falls to a tenth in about 2.3 × decay);
     * longer keeps a slow instance aside longer. No effect with other balancers.
     */
    public Builder peakEwmaDecay(Duration decay) {
      this.peakEwmaDecay = Durations.positive(decay, "peakEwmaDecay");
      return this;
    }

    /**
     * With {@link LoadBalancing#CONSISTENT_HASH}: the request header whose value is a call's key when its
     * options give none ({@link io.triplerpc.CallOptions#withHashKey}, or the arguments of
     * {@link io.triplerpc.CallOptions#withHashArguments}), as gRPC's ring hash takes a request hash
     * header. None by default. No effect with other balancers.
     */
    public Builder hashKeyHeader(String header) {
      Objects.requireNonNull(header, "header");
      if (header.isEmpty() || header.startsWith(":") || io.triplerpc.Metadata.isBinaryKey(header)) {
        throw new IllegalArgumentException("hashKeyHeader must name an ASCII request header: '" + header + "'");
      }
      this.hashKeyHeader = header;
      return this;
    }

    /**
     * With {@link LoadBalancing#CONSISTENT_HASH}: the points each instance has on the ring, 160 by default
     * as Dubbo's {@code hash.nodes} (use the same number as the Dubbo consumers of the same providers, so
     * that both send a key to the same instance). More points spread keys more evenly and cost memory
     * (16 bytes a point) and time when the ring is built again after a change.
     */
    public Builder hashNodes(int nodes) {
      if (nodes < 4) {
        throw new IllegalArgumentException("hashNodes must be at least 4: " + nodes);
      }
      this.hashNodes = nodes;
      return this;
    }

    /**
     * The window over which a new instance's weight ramps up, from 1 to its full weight, counted from the
     * start time its registry gives (Triple's registrations and Dubbo 3's instances give one): 10 minutes
     * by default, Dubbo's default, by Dubbo's formula, so Triple and Dubbo consumers of one estate give a
     * starting instance the same share. {@link Duration#ZERO} turns it off. Only weights that a balancer
     * uses matter ({@link LoadBalancing#WEIGHTED_RANDOM}); nothing is added to the calls: the weights move
     * on a timer, a hundredth of the window at a time (between 100 ms and 1 s).
     */
    public Builder warmup(Duration warmup) {
      Objects.requireNonNull(warmup, "warmup");
      if (warmup.isNegative()) {
        throw new IllegalArgumentException("warmup must not be negative: " + warmup);
      }
      this.warmup = warmup;
      return this;
    }

    /** For tests: the wall clock (epoch milliseconds) instances' start times are compared with. */
    Builder warmupClock(LongSupplier clock) {
      this.warmupClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** For tests: peak-EWMA latencies timed by {@code clock} (nanoseconds). */
    Builder peakEwmaClock(LongSupplier clock) {
      this.peakEwmaClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Further attempts, each on another instance, of a call to an idempotent method
     * ({@code @TripleMethod(idempotent = true)}) that fails with UNAVAILABLE before any response; 2
     * by default, 0 to fail fast always. Other calls are never retried.
     */
    public Builder retries(int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("retries must not be negative: " + retries);
      }
      this.retries = retries;
      return this;
    }

    /**
     * Takes instances that keep failing out of rotation for a while (gRPC's outlier detection, see
     * {@link OutlierDetection}); off by default, as in grpc-java.
     */
    public Builder outlierDetection(OutlierDetection detection) {
      this.outlierDetection = Objects.requireNonNull(detection, "detection");
      return this;
    }

    /** For tests: outlier detection evaluated on {@code scheduler}, reading the time from {@code clock}. */
    Builder outlierClock(ScheduledExecutorService scheduler, LongSupplier clock) {
      this.outlierScheduler = Objects.requireNonNull(scheduler, "scheduler");
      this.outlierClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Tells {@code observer} how many instances each service called has and how long the registry's
     * pushes take to reach the calls, for metrics ({@code triple-micrometer}'s {@code DiscoveryMetrics});
     * no one by default. Every client built with this discovery reports to it.
     */
    public Builder observer(DiscoveryObserver observer) {
      this.observer = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /** For tests: the observer's push lag timed by {@code clock} (nanoseconds). */
    Builder observerClock(LongSupplier clock) {
      this.observerClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Changes arriving during a burst are collected for this long and applied together; a change
     * after a quiet spell applies at once. 20 ms by default; zero applies every change at once.
     */
    public Builder coalesceWindow(Duration window) {
      this.coalesceWindow = Durations.notNegative(window, "window");
      return this;
    }


    /**
     * Whether an empty list of instances after a non-empty one is ignored (a registry in trouble
     * must not wipe working addresses; removals one by one still apply); on by default.
     */
    public Builder emptyProtection(boolean enabled) {
      this.emptyProtection = enabled;
      return this;
    }

    /** How long the first calls to a service wait for its first list of instances; 3 s by default. */
    public Builder initialWait(Duration wait) {
      this.initialWait = Durations.notNegative(wait, "wait");
      return this;
    }

    /**
     * Keeps the last known instances, metadata and mappings in files in {@code directory} (rewritten
     * at most once per {@code delay}), so a consumer restarted while the registry is down still
     * finds its providers. Off by default.
     */
    public Builder snapshotDirectory(Path directory, Duration delay) {
      this.snapshotDirectory = Objects.requireNonNull(directory, "directory");
      this.snapshotDelay = Durations.notNegative(delay, "delay");
      return this;
    }

    /** Keeps the last known state in files in {@code directory}, rewritten at most once a second. */
    public Builder snapshotDirectory(Path directory) {
      return snapshotDirectory(directory, Duration.ofSeconds(1));
    }

    /**
     * Obeys the governance rules in {@code rules} (Apache Dubbo's, as Dubbo Admin writes them), read live:
     * each provider application's tag rule routes calls by their tag ({@code CallOptions.withTag} or the
     * {@code dubbo.tag} header); the condition rules of each service called, of its provider applications and
     * of the consumer's own application ({@link #consumerApplication}) route calls by method, attachments and
     * the consumer's values; the dynamic configuration of each service called and of the consumer's
     * application overrides the instances' timeout, weight and {@code disabled}, and the failover retries.
     * None by default. The source is not closed with the client.
     */
    public Builder rules(RuleSource rules) {
      this.rules = Objects.requireNonNull(rules, "rules");
      return this;
    }

    /**
     * The application this consumer is part of, as Dubbo's rules name consumers: with {@link #rules}, its
     * condition rule ({@code <application>.condition-router}) applies to every call, and conditions'
     * {@code application} and {@code $application} name it; its dynamic configuration
     * ({@code <application>.configurators}) is obeyed, and a service's items that list {@code applications}
     * apply when they list it. None by default: only service and provider rules apply, and of the dynamic
     * configuration only items that list no application.
     */
    public Builder consumerApplication(String application) {
      Objects.requireNonNull(application, "application");
      if (application.isBlank()) {
        throw new IllegalArgumentException("consumerApplication is blank");
      }
      this.consumerApplication = application;
      return this;
    }

    /**
     * This consumer's host as rules name consumers: the dynamic configuration's {@code addresses}, condition
     * rules' {@code host} and {@code $host}; by default the machine's first non-loopback IPv4 address, the one
     * a Dubbo consumer on the machine takes.
     */
    public Builder consumerHost(String host) {
      Objects.requireNonNull(host, "host");
      if (host.isBlank()) {
        throw new IllegalArgumentException("consumerHost is blank");
      }
      this.consumerHost = host;
      return this;
    }

    /** Names the application serving {@code serviceName}, so the registry's mapping is not asked. */
    public Builder application(String serviceName, String application) {
      applications.put(Objects.requireNonNull(serviceName, "serviceName"),
          Objects.requireNonNull(application, "application"));
      return this;
    }

    /**
     * Closes the registry when the client closes; for a registry given to {@link #using} that no
     * one else uses (registries from {@link #connecting} are always closed with their client).
     */
    public Builder closeRegistryWithClient(boolean close) {
      this.closeRegistry = close;
      return this;
    }

    /** The discovery, to pass to {@code TripleClient.Builder.cluster}; later builder changes do not affect it. */
    public Discovery build() {
      return new Discovery(this);
    }
  }
}
