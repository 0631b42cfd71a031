package io.triplerpc.registry.internal;

import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's instances as a consumer knows them: one {@link Endpoint} per instance, grouped
 * by metadata revision, indexed by address, updated change by change. Every service of the
 * application reads the same groups through its {@link ServiceDirectory}.
 *
 * <p>Changes are applied on the registry's notifying thread as they come; while a burst goes on,
 * they are collected and applied together once per coalescing window. All state changes hold this
 * object's lock; balancers read the groups without it. A {@link MetadataFetcher} fetches revisions'
 * metadata and hands it over under that lock; a {@link SnapshotWriter} rewrites the snapshot file,
 * taking only the state under it. A {@link DiscoveryObserver} hears the services' sizes and the
 * pushes' lag ({@link PushLag}) after that lock is released.
 */
public final class ApplicationDirectory implements InstanceListener {

  private static final Logger log = LoggerFactory.getLogger(ApplicationDirectory.class);
  /** How long a removed instance's connection stays open for its calls in flight. */
  private static final long DRAIN_LIMIT_SECONDS = 30;

  /** Told after each batch of changes is applied, for measurements and tests. */
  public interface AppliedListener {
    void applied(ApplicationDirectory directory, int changes);
  }

  final String application;
  private final ScheduledExecutorService scheduler;
  private final DirectorySettings settings;
  private final Snapshots snapshots;
  private final MetadataFetcher metadataFetcher;
  /** Null when there are no snapshots. */
  private final SnapshotWriter snapshotWriter;

  private final EndpointIndex index = new EndpointIndex();
  private final Map<String, RevisionGroup> groups = new HashMap<>();
  /** Metadata known by revision, kept when a revision's last instance leaves (it may come back). */
  private final Map<String, MetadataInfo> metadata = new HashMap<>();
  private final List<ServiceDirectory> services = new ArrayList<>();
  private final List<Runnable> readyWaiters = new ArrayList<>();
  private boolean synced;
  private int pendingMetadata;
  /** Set when the cluster closes: later deliveries from the registry are ignored. */
  private boolean closed;
  /** Endpoints whose weight is ramping up ({@link Warmup}), with the weight their instance has. */
  private final Map<Endpoint, Warming> warming = new java.util.IdentityHashMap<>();
  private boolean warmTickScheduled;

  /** An endpoint in its warm-up: the weight it ramps up to, and when its instance started. */
  private record Warming(int weight, long startTimeMillis) {}

  /** While a whole list is applied: new groups start in bulk mode ({@link RevisionGroup#beginBulk}). */
  private boolean inList;

  private boolean windowOpen;
  private List<InstanceChange> pending = new ArrayList<>();
  private final Runnable closeWindow = this::closeWindow;

  /** Told the services' sizes and the pushes' lag, never under this lock; null when no one observes. */
  private final DiscoveryObserver observer;
  private final PushLag pushLag;
  /** {@link #services}, for reports made without this lock; copy on write, as services are added rarely. */
  private volatile ServiceDirectory[] observed = new ServiceDirectory[0];

  /**
   * A directory of {@code application}; {@code snapshots} may be null. Subscribe it to the registry
   * with {@link Registry#subscribe}.
   */
  public ApplicationDirectory(
      String application,
      Registry registry,
      ScheduledExecutorService scheduler,
      DirectorySettings settings,
      Snapshots snapshots) {
    this.application = application;
    this.scheduler = scheduler;
    this.settings = settings;
    this.snapshots = snapshots;
    this.observer = settings.observer();
    this.pushLag = new PushLag(application, observer, settings.clock());
    this.metadataFetcher = new MetadataFetcher(application, registry, this, this::schedule, new FetchTarget());
    this.snapshotWriter = snapshots == null ? null
        : new SnapshotWriter(snapshots, application, this, this::snapshot, this::schedule, settings.snapshotDelayNanos());
  }

  /** Starts from the last snapshot, if any, until the registry's first list arrives. */
  public synchronized void restoreSnapshot() {
    if (snapshots == null || synced) {
      return;
    }
    Snapshots.Application restored = snapshots.read(application);
    if (restored == null) {
      return;
    }
    restored.metadata().forEach(info -> metadata.put(info.revision(), info));
    for (ServiceInstance instance : restored.instances()) {
      upsert(instance);
    }
    log.info("{}: {} instances restored from the snapshot until the registry answers", application, index.size());
    synced = true;
    maybeReady();
  }

  /** Instances known now. */
  public synchronized int size() {
    return index.size();
  }

  /** Adds a service of this application that a consumer calls; links the groups that serve it. */
  public synchronized void addService(ServiceDirectory service) {
    if (services.contains(service)) {
      return;
    }
    services.add(service);
    for (RevisionGroup group : groups.values()) {
      if (group.serves(service)) {
        service.link(group);
      }
    }
    if (observer != null) {
      observed = services.toArray(new ServiceDirectory[0]);
      // On the scheduler: this runs on the thread that first names the service, perhaps a caller's.
      schedule(() -> service.reportSize(observer), 0, TimeUnit.NANOSECONDS);
    }
  }

  /** Runs {@code task} once the first list and the metadata of its revisions are in. */
  public void whenReady(Runnable task) {
    synchronized (this) {
      if (!synced || pendingMetadata > 0) {
        readyWaiters.add(task);
        return;
      }
    }
    task.run();
  }

  private void maybeReady() {
    if (!synced || pendingMetadata > 0 || readyWaiters.isEmpty()) {
      return;
    }
    List<Runnable> waiters = List.copyOf(readyWaiters);
    readyWaiters.clear();
    // Run on the scheduler: waiters take other locks, and this one is held.
    schedule(() -> waiters.forEach(Runnable::run), 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public void onResync(Collection<ServiceInstance> instances) {
    long received = pushLag.now();
    int applied;
    List<PushLag.Pushes> done;
    synchronized (this) {
      if (closed) {
        return;
      }
      if (instances.isEmpty() && index.size() > 0 && settings.emptyProtection()) {
        log.warn("{}: the registry sent an empty list while {} instances are known; kept them (empty protection)",
            application, index.size());
        synced = true;
        maybeReady();
        return;
      }
      pushLag.applying(received);
      // The whole list is applied in bulk: the index and the groups are sized for it first, and the
      // groups' weight trees are rebuilt once at the end, not updated instance by instance.
      index.ensureCapacity(instances.size());
      List<Endpoint> gone = new ArrayList<>();
      inList = true;
      boolean complete = false;
      try {
        reserve(instances);
        boolean first = index.size() == 0;
        for (ServiceInstance instance : instances) {
          Endpoint e = upsert(instance);
          if (e != null && !first) {
            e.mark();
          }
        }
        // Known before and not in the list: gone. (After a first list, nothing is.)
        if (!first) {
          index.forEach(e -> {
            if (!e.unmark()) {
              gone.add(e);
            }
          });
        }
        gone.forEach(this::removeEndpoint);
        complete = true;
      } finally {
        if (!complete) {
          index.forEach(Endpoint::unmark);
        }
        endList();
      }
      applied = instances.size() + gone.size();
      // Changes collected before the list are older than it.
      pending.clear();
      synced = true;
      maybeReady();
      scheduleSnapshot();
      pushLag.applied();
      done = pushLag.takeInUse();
    }
    settings.appliedListener().applied(this, applied);
    report(done);
  }

  @Override
  public void onChanges(List<InstanceChange> changes) {
    long received = pushLag.now();
    long window = settings.coalesceWindowNanos();
    List<PushLag.Pushes> done;
    synchronized (this) {
      if (closed) {
        return;
      }
      // An empty batch changes nothing: it is not timed.
      if (windowOpen) {
        pending.addAll(changes);
        if (!changes.isEmpty()) {
          pushLag.collect(received);
        }
        return;
      }
      if (!changes.isEmpty()) {
        pushLag.applying(received);
      }
      apply(changes);
      pushLag.applied();
      done = pushLag.takeInUse();
      windowOpen = window > 0;
    }
    settings.appliedListener().applied(this, changes.size());
    report(done);
    if (window > 0) {
      schedule(closeWindow, window, TimeUnit.NANOSECONDS);
    }
  }

  /** The end of a coalescing window: applies what came meanwhile, and keeps the window open if anything did. */
  private void closeWindow() {
    int applied;
    List<PushLag.Pushes> done;
    synchronized (this) {
      if (pending.isEmpty() || closed) {
        windowOpen = false;
        return;
      }
      List<InstanceChange> batch = pending;
      pending = new ArrayList<>();
      pushLag.applyingCollected();
      apply(batch);
      applied = batch.size();
      pushLag.applied();
      done = pushLag.takeInUse();
    }
    settings.appliedListener().applied(this, applied);
    report(done);
    schedule(closeWindow, settings.coalesceWindowNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  public void onDisconnected(Throwable cause) {
    log.warn("{}: lost the registry ({}); calling the {} known instances meanwhile", application, cause.toString(), size());
  }

  /** The end of a list, even one that failed half-way: the groups' weight trees rebuilt. Lock held. */
  private void endList() {
    inList = false;
    for (RevisionGroup group : groups.values()) {
      group.endBulk();
    }
  }

  /**
   * Before a list: makes room in each revision's group for the list's instances of that revision, and
   * puts the groups in bulk mode. Lock held.
   */
  private void reserve(Collection<ServiceInstance> instances) {
    for (RevisionGroup group : groups.values()) {
      group.beginBulk();
    }
    Map<String, int[]> counts = new HashMap<>();
    String revision = null;
    int[] count = null;
    for (ServiceInstance instance : instances) {
      if (!instance.application().equals(application)) {
        continue; // skipped, with a warning, when applied
      }
      // A list's instances mostly share a few revisions, often one string: one map look-up per run.
      if (instance.revision() != revision) {
        revision = instance.revision();
        count = counts.computeIfAbsent(revision, r -> new int[1]);
      }
      count[0]++;
    }
    counts.forEach((r, n) -> {
      if (n[0] > 16) {
        group(r).ensureCapacity(n[0]);
      }
    });
  }

  /** Called with the lock held. */
  private void apply(List<InstanceChange> changes) {
    for (int i = 0, n = changes.size(); i < n; i++) {
      InstanceChange change = changes.get(i);
      if (change.kind() == InstanceChange.Kind.REMOVED) {
        ServiceInstance instance = change.instance();
        // The index is by address only: another application's record must not remove ours.
        Endpoint e = isOurs(instance) ? index.get(instance.host(), instance.port()) : null;
        if (e != null) {
          removeEndpoint(e);
        }
      } else {
        upsert(change.instance());
      }
    }
    scheduleSnapshot();
  }

  /** Adds or changes the endpoint of {@code instance}; null if the record is not for this application. */
  private Endpoint upsert(ServiceInstance instance) {
    if (!isOurs(instance)) {
      return null;
    }
    String host = instance.host();
    long ipv4 = Endpoint.ipv4(host);
    int found = index.find(ipv4, host, instance.port());
    int weight = Warmup.weight(instance.weight(), instance.startTimeMillis(), settings.warmupMillis(),
        settings.wallClock().getAsLong());
    if (found < 0) {
      PeakEwma peakEwma = settings.peakEwma();
      Endpoint e = new Endpoint(host, ipv4, instance.port(), weight,
          settings.outlierDetection() == null ? null : new OutlierStats(settings.outlierDetection()),
          peakEwma == null ? null : peakEwma.newEstimate());
      index.add(e, found);
      group(instance.revision()).add(e);
      pushLag.placedIn(e.group);
      trackWarmup(e, instance, weight);
      return e;
    }
    Endpoint e = index.at(found);
    RevisionGroup current = e.group;
    if (!current.revision.equals(instance.revision())) {
      current.remove(e);
      e.weight = weight;
      group(instance.revision()).add(e);
      dropIfEmpty(current);
    } else if (e.weight != weight) {
      current.reweigh(e, weight);
    }
    pushLag.placedIn(e.group);
    trackWarmup(e, instance, weight);
    return e;
  }

  /**
   * Keeps {@code e} among the warming endpoints while its weight now ({@code weight}) is below its instance's,
   * and makes sure the ramp moves on. Lock held.
   */
  private void trackWarmup(Endpoint e, ServiceInstance instance, int weight) {
    if (weight == instance.weight()
        && !Warmup.warming(instance.startTimeMillis(), settings.warmupMillis(), settings.wallClock().getAsLong())) {
      warming.remove(e);
      return;
    }
    warming.put(e, new Warming(instance.weight(), instance.startTimeMillis()));
    e.startTimeMillis(instance.startTimeMillis());
    if (!warmTickScheduled) {
      warmTickScheduled = true;
      schedule(this::warmTick, Warmup.tickMillis(settings.warmupMillis()), TimeUnit.MILLISECONDS);
    }
  }

  /** Moves every warming endpoint's weight up the ramp; off the list once warm. On the scheduler. */
  private void warmTick() {
    synchronized (this) {
      warmTickScheduled = false;
      if (closed) {
        return;
      }
      long now = settings.wallClock().getAsLong();
      for (java.util.Iterator<Map.Entry<Endpoint, Warming>> it = warming.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<Endpoint, Warming> entry = it.next();
        Endpoint e = entry.getKey();
        Warming w = entry.getValue();
        int weight = Warmup.weight(w.weight(), w.startTimeMillis(), settings.warmupMillis(), now);
        if (e.group != null && e.weight != weight) {
          e.group.reweigh(e, weight);
        }
        if (e.group == null || !Warmup.warming(w.startTimeMillis(), settings.warmupMillis(), now)) {
          it.remove();
        }
      }
      if (!warming.isEmpty()) {
        warmTickScheduled = true;
        schedule(this::warmTick, Warmup.tickMillis(settings.warmupMillis()), TimeUnit.MILLISECONDS);
      }
    }
  }

  /** The weight {@code e}'s instance has (not the warm-up's share of it). Lock held. */
  private int instanceWeight(Endpoint e) {
    Warming w = warming.get(e);
    return w != null ? w.weight() : e.weight;
  }

  /** Whether {@code instance} is of this application; warns if not. */
  private boolean isOurs(ServiceInstance instance) {
    if (instance.application().equals(application)) {
      return true;
    }
    log.warn("{}: skipped a record of another application: {}", application, instance);
    return false;
  }

  private void removeEndpoint(Endpoint e) {
    warming.remove(e);
    index.remove(e);
    RevisionGroup group = e.group;
    group.remove(e);
    dropIfEmpty(group);
    e.remove();
    if (e.isDraining()) {
      // Calls still in flight there: the connection closes when they end, or after this at most.
      schedule(e::closeConnection, DRAIN_LIMIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  private void schedule(Runnable task, long delay, TimeUnit unit) {
    try {
      scheduler.schedule(task, delay, unit);
    } catch (RejectedExecutionException e) {
      // The cluster is closed; its close() has closed every connection.
    }
  }

  private RevisionGroup group(String revision) {
    RevisionGroup group = groups.get(revision);
    if (group != null) {
      return group;
    }
    group = new RevisionGroup(application, revision, settings.servesAll(revision));
    if (inList) {
      group.beginBulk();
    }
    groups.put(revision, group);
    MetadataInfo known = metadata.get(revision);
    if (known != null || group.servesAll) {
      group.metadata = known;
      linkServed(group);
    } else {
      pendingMetadata++;
      // Before fetching: an answer already at hand is handled within fetch().
      pushLag.fetching(group);
      metadataFetcher.fetch(group);
    }
    return group;
  }

  private void linkServed(RevisionGroup group) {
    for (ServiceDirectory service : services) {
      if (group.serves(service)) {
        service.link(group);
      }
    }
  }

  private void dropIfEmpty(RevisionGroup group) {
    if (group.size() > 0) {
      return;
    }
    groups.remove(group.revision);
    for (ServiceDirectory service : services) {
      service.unlink(group);
    }
  }

  /** Tells the observer, without this lock, the services' sizes now and the lag of {@code done} pushes (or none, if null). */
  private void report(List<PushLag.Pushes> done) {
    if (observer == null) {
      return;
    }
    for (ServiceDirectory service : observed) {
      service.reportSize(observer);
    }
    pushLag.report(done);
  }

  /** With the lock held (a metadata answer): reports what it changed on the scheduler, without the lock. */
  private void reportLater() {
    if (observer == null) {
      return;
    }
    schedule(() -> {
      List<PushLag.Pushes> done;
      synchronized (this) {
        done = pushLag.takeInUse();
      }
      report(done);
    }, 0, TimeUnit.NANOSECONDS);
  }

  private void scheduleSnapshot() {
    if (snapshotWriter != null) {
      snapshotWriter.changed();
    }
  }

  /** What the snapshot keeps: every instance, and the metadata of their revisions. Lock held. */
  private Snapshots.Application snapshot() {
    List<ServiceInstance> instances = new ArrayList<>();
    for (RevisionGroup group : groups.values()) {
      for (int i = 0, n = group.size(); i < n; i++) {
        Endpoint e = group.at(i);
        instances.add(ServiceInstance.of(application, e.host(), e.port, group.revision).withWeight(instanceWeight(e)));
      }
    }
    List<MetadataInfo> revisions = new ArrayList<>();
    for (RevisionGroup group : groups.values()) {
      if (group.metadata != null) {
        revisions.add(group.metadata);
      }
    }
    return new Snapshots.Application(instances, revisions);
  }

  /** Writes the snapshot now if a write is pending (the cluster is closing). */
  public void flushSnapshot() {
    if (snapshotWriter != null) {
      snapshotWriter.flush();
    }
  }

  /** Closes the connections of every instance (the directory is being closed). */
  public synchronized void closeConnections() {
    closed = true;
    index.forEach(e -> {
      e.remove();
      e.closeConnection();
    });
  }

  /** Calls {@code action} for each endpoint; for tests and the demo. */
  public synchronized void forEachEndpoint(java.util.function.Consumer<Endpoint> action) {
    index.forEach(action);
  }

  /** Where fetched metadata lands; called with this directory's lock held. */
  private final class FetchTarget implements MetadataFetcher.Target {

    @Override
    public boolean current(RevisionGroup group) {
      return groups.get(group.revision) == group;
    }

    @Override
    public void found(RevisionGroup group, MetadataInfo info) {
      metadata.put(info.revision(), info);
      group.metadata = info;
      if (current(group)) {
        linkServed(group);
        reportLater();
      }
    }

    @Override
    public void settled(RevisionGroup group) {
      pendingMetadata--;
      maybeReady();
      if (pushLag.settled(group)) {
        reportLater();
      }
    }
  }

  @Override
  public String toString() {
    return "ApplicationDirectory{" + application + ", " + size() + " instances, " + groups.size() + " revisions}";
  }
}
