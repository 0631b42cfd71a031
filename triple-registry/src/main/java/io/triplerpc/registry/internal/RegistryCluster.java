package io.triplerpc.registry.internal;

import io.triplerpc.CallOptions;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.OutlierDetection;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.Subscription;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Connector;
import io.triplerpc.spi.Picker;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's view of a registry: a {@link ServiceDirectory} per service called, an
 * {@link ApplicationDirectory} (one subscription) per application serving them, and calls spread
 * over the instances.
 */
public final class RegistryCluster implements Cluster {

  private static final Logger log = LoggerFactory.getLogger(RegistryCluster.class);

  private final Registry registry;
  private final boolean ownsRegistry;
  private final Connector connector;
  private final DirectorySettings settings;
  private final Snapshots snapshots;
  private final Map<String, String> pinnedApplications;
  private final ScheduledExecutorService scheduler;
  private final Map<DirectoryKey, ServiceDirectory> services = new ConcurrentHashMap<>();
  private final Map<String, ApplicationDirectory> applications = new ConcurrentHashMap<>();
  private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
  private volatile boolean closed;
  /** Tag routing by the rules of a config center, or null when the consumer obeys none. */
  private final TagRouter tagRouter;
  /** Condition routing by the rules of a config center, or null when the consumer obeys none. */
  private final ConditionRouter conditionRouter;
  /** The dynamic configuration of a config center, or null when the consumer obeys none. */
  private final Configurators configurators;
  /** The periodic evaluation of outlier detection, or null when it is off. */
  private final ScheduledFuture<?> outlierTask;

  /**
   * A cluster over {@code registry}; {@code snapshots} may be null, {@code pinnedApplications} names
   * the application of services that should not be looked up in the registry's mapping.
   */
  public RegistryCluster(
      Registry registry,
      boolean ownsRegistry,
      Connector connector,
      DirectorySettings settings,
      Snapshots snapshots,
      Map<String, String> pinnedApplications) {
    this(registry, ownsRegistry, connector, settings, snapshots, pinnedApplications, null, System::nanoTime, null,
        null);
  }

  /**
   * A cluster whose outlier detection (if {@code settings} turn it on) runs on {@code outlierScheduler}
   * (the cluster's own scheduler if null) and reads the time from {@code outlierClock} (a controllable clock in
   * tests), obeying the governance rules of {@code rules} (none if null): its condition rules and dynamic
   * configuration are read for the consumer {@code consumer} (a consumer of no application on the machine's
   * address if null).
   */
  public RegistryCluster(
      Registry registry,
      boolean ownsRegistry,
      Connector connector,
      DirectorySettings settings,
      Snapshots snapshots,
      Map<String, String> pinnedApplications,
      ScheduledExecutorService outlierScheduler,
      LongSupplier outlierClock,
      RuleSource rules,
      ConsumerIdentity consumer) {
    this.registry = registry;
    this.ownsRegistry = ownsRegistry;
    // A connection that goes away, or cannot be opened, may mean the registry's list is stale: a registry
    // that looks its list up (DNS) is asked to look again; one that pushes ignores the hint.
    this.connector = address -> {
      Connection connection = connector.connect(address);
      connection.onConnectionsChanged(() -> {
        if (!connection.isActive()) {
          subscriptions.forEach(Subscription::refresh);
        }
      });
      return connection;
    };
    this.settings = settings;
    this.snapshots = snapshots;
    this.pinnedApplications = Map.copyOf(pinnedApplications);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(Threads.daemon("triple-directory"));
    this.tagRouter = rules == null ? null : new TagRouter(rules, scheduler, settings.initialWaitNanos());
    ConsumerIdentity identity = consumer != null ? consumer : new ConsumerIdentity(null, LocalHost.address());
    this.configurators = rules == null ? null : new Configurators(rules, identity.application(), identity.host(),
        settings.warmupMillis(), settings.wallClock());
    this.conditionRouter = rules == null ? null : new ConditionRouter(rules, identity.application(), identity.host(),
        scheduler, settings.initialWaitNanos());
    OutlierDetection outliers = settings.outlierDetection();
    if (outliers == null) {
      this.outlierTask = null;
    } else {
      OutlierDetector detector = new OutlierDetector(outliers, outlierClock);
      long interval = outliers.interval().toNanos();
      this.outlierTask = (outlierScheduler != null ? outlierScheduler : scheduler).scheduleAtFixedRate(
          () -> evaluateOutliers(detector), interval, interval, TimeUnit.NANOSECONDS);
    }
  }

  /** One outlier evaluation of each application's instances; a failure must not stop the later ones. */
  private void evaluateOutliers(OutlierDetector detector) {
    for (ApplicationDirectory application : applications.values()) {
      try {
        detector.evaluate(application);
      } catch (RuntimeException e) {
        log.warn("Outlier detection failed for the instances of {}", application, e);
      }
    }
  }

  @Override
  public void prepare(String serviceName, CallOptions options) {
    directory(serviceName, options);
  }

  /** The directory of {@code serviceName} in the export {@code options} name, created on first use. */
  ServiceDirectory directory(String serviceName, CallOptions options) {
    String version = options.serviceVersion();
    String group = options.serviceGroup();
    return directory(serviceName, version == null ? "" : version, group == null ? "" : group);
  }

  /** The directory of {@code serviceName} without version and group. */
  public ServiceDirectory directory(String serviceName) {
    return directory(serviceName, "", "");
  }

  /**
   * The directory of {@code serviceName}'s export with {@code version} and {@code group} ({@code "*"} for
   * any), created (and its applications looked up) on first use.
   */
  public ServiceDirectory directory(String serviceName, String version, String group) {
    DirectoryKey key = new DirectoryKey(serviceName, version, group);
    ServiceDirectory directory = services.get(key);
    if (directory != null) {
      return directory;
    }
    ServiceDirectory created =
        new ServiceDirectory(serviceName, version, group, settings.balancing(), settings.peakEwma(),
            settings.hashNodes());
    created.tagRouter = tagRouter;
    created.configurators = configurators;
    if (conditionRouter != null && !closed) {
      // Before the directory is published: no call may go round the stage. Watching its rule is idempotent.
      created.conditions = new ConditionStage(conditionRouter, created);
    }
    directory = services.putIfAbsent(key, created);
    if (directory != null) {
      return directory;
    }
    if (configurators != null && !closed) {
      configurators.watch(created);
    }
    DiscoveryObserver observer = settings.observer();
    if (observer != null) {
      // Its first size, 0 while no application is attached; on the scheduler, not on the caller's thread.
      schedule(() -> created.reportSize(observer), 0);
    }
    resolve(created);
    return created;
  }

  /** A directory's export: built per call, a record the JIT can keep off the heap. */
  private record DirectoryKey(String serviceName, String version, String group) {}

  /** How often the applications of a service are looked up again, to find newcomers. */
  private static final long MAPPING_REFRESH_MILLIS = 30_000;
  /** The first retry of a lookup that found no application; doubled up to the refresh period. */
  private static final long MAPPING_RETRY_MILLIS = 250;

  private void resolve(ServiceDirectory directory) {
    String pinned = pinnedApplications.get(directory.serviceName);
    if (pinned != null) {
      attach(directory, Set.of(pinned));
      return;
    }
    lookUp(directory, MAPPING_RETRY_MILLIS);
  }

  /**
   * Asks the registry which applications serve the service, attaches those not attached yet, and asks
   * again later: soon while none is known (a consumer may start before its providers), then every
   * {@link #MAPPING_REFRESH_MILLIS} ms for applications that start serving it later.
   */
  private void lookUp(ServiceDirectory directory, long retryMillis) {
    if (closed) {
      return;
    }
    Completions.whenDone(registry.applications(directory.serviceName), (found, failure) -> {
      Set<String> apps = failure == null ? found : Set.of();
      if (apps.isEmpty() && !directory.hasApplications()) {
        Set<String> saved = snapshots == null ? null : snapshots.readMapping(directory.serviceName);
        if (saved != null && !saved.isEmpty()) {
          log.warn("{}: {}; using the applications of the snapshot: {}", directory.serviceName,
              failure != null ? "the registry did not answer (" + failure + ")" : "the registry knows no application",
              saved);
          apps = saved;
        }
      } else if (failure == null && snapshots != null && !apps.isEmpty()) {
        snapshots.writeMapping(directory.serviceName, apps);
      }
      if (!apps.isEmpty()) {
        attach(directory, apps);
        schedule(() -> lookUp(directory, MAPPING_RETRY_MILLIS), MAPPING_REFRESH_MILLIS);
        return;
      }
      if (!directory.hasApplications()) {
        directory.markReady(failure != null
            ? "Cannot find the applications serving " + directory.serviceName + ": " + failure
            : "No application serves " + directory.serviceName + " in the registry");
      }
      schedule(() -> lookUp(directory, Math.min(retryMillis * 2, MAPPING_REFRESH_MILLIS)), retryMillis);
    }, this::executeOnScheduler);
  }

  private void executeOnScheduler(Runnable task) {
    schedule(task, 0);
  }

  private void schedule(Runnable task, long delayMillis) {
    try {
      scheduler.schedule(task, delayMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // Closed meanwhile.
    }
  }

  private void attach(ServiceDirectory directory, Set<String> apps) {
    for (String app : apps) {
      if (!directory.addApplication(app)) {
        continue;
      }
      ApplicationDirectory application = application(app);
      application.addService(directory);
      application.whenReady(() -> directory.markReady(null));
    }
  }

  /** The directory of {@code application}, subscribed on first use. */
  public ApplicationDirectory application(String application) {
    ApplicationDirectory existing = applications.get(application);
    if (existing != null) {
      return existing;
    }
    synchronized (applications) {
      existing = applications.get(application);
      if (existing != null) {
        return existing;
      }
      if (tagRouter != null && !closed) {
        tagRouter.watch(application);
      }
      if (conditionRouter != null && !closed) {
        conditionRouter.watchApplication(application);
      }
      ApplicationDirectory created = new ApplicationDirectory(application, registry, scheduler, settings, snapshots);
      created.restoreSnapshot();
      applications.put(application, created);
      if (!closed) {
        subscriptions.add(registry.subscribe(application, created));
      }
      return created;
    }
  }

  @Override
  public Picker picker(MethodDescriptor<?, ?> method, CallOptions options) {
    return new DirectoryPicker(directory(method.serviceName(), options), connector, settings);
  }

  @Override
  public boolean isActive() {
    for (ApplicationDirectory application : applications.values()) {
      boolean[] active = new boolean[1];
      application.forEachEndpoint(e -> active[0] |= e.hasActiveConnection());
      if (active[0]) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * What the admin endpoint shows of this client's discovery: the services it calls with the applications
   * serving each, and each application subscribed to with its endpoints and the tag rule in force
   * ({@link DirectoryViews}). Never blocks for long: each application's lock, briefly.
   */
  public Map<String, Object> describe() {
    Map<String, Object> described = new java.util.LinkedHashMap<>();
    described.put("registry", registry.toString());
    described.put("balancing", settings.balancing().name());
    described.put("closed", closed);
    List<Map<String, Object>> called = new java.util.ArrayList<>();
    services.values().forEach(directory -> called.add(DirectoryViews.service(directory)));
    called.sort(java.util.Comparator.comparing(service -> String.valueOf(service.get("service"))));
    described.put("services", called);
    List<Map<String, Object>> subscribed = new java.util.ArrayList<>();
    new java.util.TreeMap<>(applications).forEach((name, application) -> {
      Map<String, Object> one = application.describe();
      if (tagRouter != null) {
        one.put("tagRule", DirectoryViews.tagRule(tagRouter.rule(name)));
      }
      subscribed.add(one);
    });
    described.put("subscriptions", subscribed);
    return described;
  }

  @Override
  public WriteStats writeStats() {
    long[] sums = new long[2];
    for (ApplicationDirectory application : applications.values()) {
      application.forEachEndpoint(e -> {
        Connection c = e.openConnection();
        if (c != null) {
          WriteStats stats = c.writeStats();
          sums[0] += stats.commands();
          sums[1] += stats.flushes();
        }
      });
    }
    return new WriteStats(sums[0], sums[1]);
  }

  @Override
  public void close() {
    List<Subscription> open;
    synchronized (applications) {
      // Under the lock application() subscribes with: no subscription can slip in after this.
      closed = true;
      open = List.copyOf(subscriptions);
    }
    open.forEach(Subscription::close);
    if (tagRouter != null) {
      tagRouter.close();
    }
    if (conditionRouter != null) {
      conditionRouter.close();
    }
    if (configurators != null) {
      configurators.close();
    }
    applications.values().forEach(ApplicationDirectory::flushSnapshot);
    applications.values().forEach(ApplicationDirectory::closeConnections);
    if (outlierTask != null) {
      outlierTask.cancel(false);
    }
    scheduler.shutdownNow();
    if (ownsRegistry) {
      registry.close();
    }
  }
}
