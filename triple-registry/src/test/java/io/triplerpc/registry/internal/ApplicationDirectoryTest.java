package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ApplicationDirectory} driven directly, as a registry's notifier would drive it, with an
 * {@link InProcessRegistry} serving the metadata and a real single-thread scheduler.
 */
class ApplicationDirectoryTest {

  private static final String APP = "shop";
  private static final String CART = "demo.Cart";
  private static final String ORDERS = "demo.Orders";
  private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  /** Serves only the cart. */
  private static final MetadataInfo CART_ONLY = metadata(CART);
  /** Serves only orders. */
  private static final MetadataInfo ORDERS_ONLY = metadata(ORDERS);
  /** Serves both. */
  private static final MetadataInfo BOTH = metadata(CART, ORDERS);

  private final InProcessRegistry registry = new InProcessRegistry();
  private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, task -> {
    Thread thread = new Thread(task, "directory-test-scheduler");
    thread.setDaemon(true);
    return thread;
  });
  /** The change count of each batch the directory applied, in order. */
  private final List<Integer> applied = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
    registry.close();
  }

  private static MetadataInfo metadata(String... services) {
    return MetadataInfo.of(APP, Stream.of(services)
        .map(name -> new ServerInfo.Service(name, List.of("call"), "proto", "", ""))
        .toList());
  }

  private static ServiceInstance instance(int port, MetadataInfo revision) {
    return ServiceInstance.of(APP, "10.0.0.1", port, revision.revision());
  }

  private DirectorySettings settings(long windowNanos, boolean emptyProtection) {
    return new DirectorySettings(LoadBalancing.ROUND_ROBIN, 0, windowNanos, TimeUnit.MILLISECONDS.toNanos(1),
        emptyProtection, TimeUnit.SECONDS.toNanos(1), (directory, changes) -> applied.add(changes));
  }

  private ApplicationDirectory directory(DirectorySettings settings) {
    return new ApplicationDirectory(APP, registry, scheduler, settings, null);
  }

  private static ServiceDirectory service(ApplicationDirectory directory, String name) {
    ServiceDirectory service = new ServiceDirectory(name, LoadBalancing.ROUND_ROBIN);
    directory.addService(service);
    return service;
  }

  private static Map<Integer, Endpoint> endpointsByPort(ApplicationDirectory directory) {
    Map<Integer, Endpoint> byPort = new HashMap<>();
    directory.forEachEndpoint(e -> assertNull(byPort.put(e.port, e), "two endpoints at " + e.address()));
    return byPort;
  }

  @Test
  void resyncAddsKeepsAndRemovesWithoutRebuildingUnchangedEndpoints() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);

    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY), instance(3, CART_ONLY)));
    assertEquals(3, directory.size());
    assertEquals(3, cart.size());
    assertEquals(List.of(3), applied);
    Map<Integer, Endpoint> before = endpointsByPort(directory);

    directory.onResync(List.of(instance(2, CART_ONLY), instance(3, CART_ONLY).withWeight(50), instance(4, CART_ONLY)));
    Map<Integer, Endpoint> after = endpointsByPort(directory);
    assertEquals(Map.of(2, before.get(2), 3, before.get(3), 4, after.get(4)), after);
    assertSame(before.get(2), after.get(2), "unchanged instance keeps its endpoint");
    assertSame(before.get(3), after.get(3), "reweighed instance keeps its endpoint");
    assertEquals(50, after.get(3).weight());
    assertEquals(100 + 50 + 100, after.get(2).group.totalWeight());
    Endpoint gone = before.get(1);
    assertTrue(gone.isRemoved(), "the endpoint of a vanished instance is closed");
    assertNull(gone.group);
    assertFalse(cart.contains(gone));
    assertEquals(3, cart.size());
    assertEquals(List.of(3, 4), applied, "3 listed + 1 removed");

    // The same instance twice in one list is one endpoint.
    directory.onResync(List.of(instance(2, CART_ONLY), instance(2, CART_ONLY)));
    assertEquals(Map.of(2, before.get(2)), endpointsByPort(directory));
    assertEquals(1, cart.size());
  }

  @Test
  void updatedWeightReweighsTheSameEndpointInPlace() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY)));
    Endpoint first = endpointsByPort(directory).get(1);
    RevisionGroup group = first.group;

    directory.onChanges(List.of(InstanceChange.updated(instance(1, CART_ONLY).withWeight(300))));
    assertSame(first, endpointsByPort(directory).get(1));
    assertSame(group, first.group);
    assertEquals(300, first.weight());
    assertEquals(400, group.totalWeight());

    // ADDED for a known address updates it too.
    directory.onChanges(List.of(InstanceChange.added(instance(1, CART_ONLY).withWeight(0))));
    assertSame(first, endpointsByPort(directory).get(1));
    assertEquals(100, group.totalWeight());
  }

  @Test
  void updatedRevisionMovesTheEndpointAndRelinksServices() {
    registry.publishMetadata(CART_ONLY);
    registry.publishMetadata(ORDERS_ONLY);
    registry.publishMetadata(BOTH);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);
    ServiceDirectory orders = service(directory, ORDERS);

    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY)));
    Endpoint first = endpointsByPort(directory).get(1);
    Endpoint second = endpointsByPort(directory).get(2);
    RevisionGroup cartGroup = first.group;
    assertEquals(2, cart.size());
    assertEquals(0, orders.size());

    directory.onChanges(List.of(InstanceChange.updated(instance(1, ORDERS_ONLY).withWeight(70))));
    assertSame(first, endpointsByPort(directory).get(1), "same endpoint, other group");
    assertEquals(ORDERS_ONLY.revision(), first.group.revision);
    assertEquals(70, first.weight());
    assertEquals(70, first.group.totalWeight());
    assertSame(first, first.group.at(first.slot()));
    assertTrue(orders.contains(first));
    assertFalse(cart.contains(first));
    assertEquals(1, cart.size());
    assertEquals(1, orders.size());
    assertSame(first, orders.pick(new Endpoint[0], 0));

    // The cart group's last instance leaves it: the group is dropped and unlinked, not kept empty.
    directory.onChanges(List.of(InstanceChange.updated(instance(2, ORDERS_ONLY))));
    assertSame(second, endpointsByPort(directory).get(2));
    assertEquals(0, cartGroup.size());
    assertEquals(0, cart.size());
    assertNull(cart.pick(new Endpoint[0], 0));
    assertEquals(2, orders.size());
    cartGroup.add(new Endpoint("10.9.9.9", 9, 100));
    assertEquals(0, cart.size(), "the emptied group is no longer linked to the cart");

    // Back to a known revision: a new group, linked at once from the kept metadata.
    directory.onChanges(List.of(InstanceChange.updated(instance(2, CART_ONLY))));
    assertNotSame(cartGroup, second.group);
    assertEquals(1, cart.size());
    assertTrue(cart.contains(second));
    assertEquals(1, orders.size());

    // A revision serving both services links one group to both.
    directory.onChanges(List.of(InstanceChange.updated(instance(1, BOTH)), InstanceChange.updated(instance(2, BOTH))));
    assertSame(first.group, second.group);
    assertEquals(2, cart.size());
    assertEquals(2, orders.size());
  }

  @Test
  void recordsOfAnotherApplicationAreSkippedWithAWarningAndTheRestApplies() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);
    ServiceInstance stranger = ServiceInstance.of("billing", "10.0.0.2", 1, CART_ONLY.revision());

    String log = Logged.during(() -> directory.onResync(List.of(instance(1, CART_ONLY), stranger, instance(2, CART_ONLY))));
    assertTrue(log.contains("skipped a record of another application") && log.contains("billing"), log);
    assertEquals(2, directory.size());
    assertEquals(2, cart.size());
    assertFalse(endpointsByPort(directory).get(1).isRemoved());

    log = Logged.during(() -> directory.onChanges(List.of(InstanceChange.added(stranger.withWeight(5)),
        InstanceChange.added(instance(3, CART_ONLY)))));
    assertTrue(log.contains("skipped a record of another application"), log);
    assertEquals(3, directory.size());
  }

  /** Another application's instance leaving must not take ours at the same host and port with it. */
  @Test
  void removalOfAnotherApplicationsInstanceAtTheSameAddressIsSkipped() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);
    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY)));
    Endpoint ours = endpointsByPort(directory).get(1);
    ServiceInstance sameAddress = ServiceInstance.of("billing", "10.0.0.1", 1, CART_ONLY.revision());

    String log = Logged.during(() -> directory.onChanges(List.of(InstanceChange.removed(sameAddress))));
    assertTrue(log.contains("skipped a record of another application"), log);
    assertSame(ours, endpointsByPort(directory).get(1));
    assertFalse(ours.isRemoved());
    assertEquals(2, cart.size());
  }

  @Test
  void emptyResyncAfterANonEmptyOneIsIgnoredWithEmptyProtection() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);
    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY)));
    Map<Integer, Endpoint> before = endpointsByPort(directory);

    String log = Logged.during(() -> directory.onResync(List.of()));
    assertTrue(log.contains("empty protection"), log);
    assertEquals(before, endpointsByPort(directory));
    before.values().forEach(e -> assertFalse(e.isRemoved(), e.toString()));
    assertEquals(2, cart.size());
    assertEquals(List.of(2), applied, "nothing was applied");

    // Instances leaving one by one do empty it: each removal is the registry's word, not a glitch.
    directory.onChanges(List.of(InstanceChange.removed(instance(1, CART_ONLY))));
    directory.onChanges(List.of(InstanceChange.removed(instance(2, CART_ONLY))));
    assertEquals(0, directory.size());
    assertEquals(0, cart.size());
    assertNull(cart.pick(new Endpoint[0], 0));
    before.values().forEach(e -> assertTrue(e.isRemoved(), e.toString()));

    // Removing what is not there changes nothing.
    directory.onChanges(List.of(InstanceChange.removed(instance(1, CART_ONLY))));
    assertEquals(0, directory.size());
  }

  @Test
  void emptyResyncEmptiesWithoutEmptyProtection() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, false));
    ServiceDirectory cart = service(directory, CART);
    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY)));
    Map<Integer, Endpoint> before = endpointsByPort(directory);

    directory.onResync(List.of());
    assertEquals(0, directory.size());
    assertEquals(0, cart.size());
    before.values().forEach(e -> assertTrue(e.isRemoved(), e.toString()));
    assertEquals(List.of(2, 2), applied);
  }

  /**
   * The first change applies at once; changes arriving while the window is open wait and apply as
   * one batch when it closes. The window runs on a {@link ManualClock}: it closes when the test moves
   * the clock past it, however slow this machine is.
   */
  @Test
  void burstOfChangesDuringTheWindowIsAppliedInOneLaterBatch() {
    registry.publishMetadata(CART_ONLY);
    try (ManualClock clock = new ManualClock()) {
      ApplicationDirectory directory =
          new ApplicationDirectory(APP, registry, clock.scheduler(), settings(WINDOW_NANOS, true), null);
      ServiceDirectory cart = service(directory, CART);
      directory.onResync(List.of(instance(1, CART_ONLY)));
      clock.runPending();
      assertEquals(List.of(1), applied);

      // Leading edge: applied on the caller's thread before onChanges returns.
      directory.onChanges(List.of(InstanceChange.added(instance(2, CART_ONLY))));
      assertEquals(List.of(1, 1), applied);
      assertEquals(2, cart.size());

      // The burst: 6 changes in 5 deliveries, none applied yet.
      clock.advance(Duration.ofNanos(WINDOW_NANOS - 1));
      directory.onChanges(List.of(InstanceChange.added(instance(3, CART_ONLY))));
      directory.onChanges(List.of(InstanceChange.updated(instance(2, CART_ONLY).withWeight(7))));
      directory.onChanges(List.of(InstanceChange.removed(instance(1, CART_ONLY))));
      directory.onChanges(List.of(InstanceChange.added(instance(4, CART_ONLY)), InstanceChange.added(instance(5, CART_ONLY))));
      directory.onChanges(List.of(InstanceChange.removed(instance(4, CART_ONLY))));
      assertEquals(List.of(1, 1), applied, "nothing applied while the window is open");
      assertEquals(2, directory.size());
      assertEquals(100, endpointsByPort(directory).get(2).weight());

      clock.advance(Duration.ofNanos(1));
      assertEquals(List.of(1, 1, 6), applied, "the burst in one batch, as the window closes");
      Map<Integer, Endpoint> now = endpointsByPort(directory);
      assertEquals(List.of(2, 3, 5), now.keySet().stream().sorted().toList());
      assertEquals(7, now.get(2).weight());
      assertEquals(3, cart.size());

      // A batch opens one more window; quiet for all of it, the window closes for good.
      directory.onChanges(List.of(InstanceChange.added(instance(6, CART_ONLY))));
      assertEquals(List.of(1, 1, 6), applied, "still inside the window the batch opened");
      clock.advance(Duration.ofNanos(WINDOW_NANOS));
      assertEquals(List.of(1, 1, 6, 1), applied);
      clock.advance(Duration.ofNanos(WINDOW_NANOS));
      directory.onChanges(List.of(InstanceChange.added(instance(7, CART_ONLY))));
      assertEquals(List.of(1, 1, 6, 1, 1), applied, "after a quiet window, a change applies at once again");
      assertEquals(5, cart.size());
    }
  }

  @Test
  void withoutAWindowEveryChangeAppliesAtOnce() {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);
    directory.onResync(List.of());
    for (int port = 1; port <= 5; port++) {
      directory.onChanges(List.of(InstanceChange.added(instance(port, CART_ONLY))));
      assertEquals(port, cart.size());
    }
    directory.onChanges(List.of(InstanceChange.removed(instance(3, CART_ONLY))));
    assertEquals(4, cart.size());
    assertEquals(List.of(0, 1, 1, 1, 1, 1, 1), applied);
    assertEquals(0, scheduler.getTaskCount(), "no window was scheduled");
  }

  @Test
  void resyncDropsChangesCollectedBeforeIt() {
    registry.publishMetadata(CART_ONLY);
    try (ManualClock clock = new ManualClock()) {
      ApplicationDirectory directory =
          new ApplicationDirectory(APP, registry, clock.scheduler(), settings(WINDOW_NANOS, true), null);
      directory.onResync(List.of(instance(1, CART_ONLY)));
      clock.runPending();
      directory.onChanges(List.of(InstanceChange.added(instance(2, CART_ONLY))));
      directory.onChanges(List.of(InstanceChange.added(instance(3, CART_ONLY))));
      directory.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY), instance(4, CART_ONLY)));
      clock.advance(Duration.ofNanos(WINDOW_NANOS));
      assertEquals(List.of(1, 2, 4), endpointsByPort(directory).keySet().stream().sorted().toList(),
          "the change to port 3 was older than the list");
      assertEquals(List.of(1, 1, 3), applied);
    }
  }

  @Test
  void instancesOfARevisionWithoutMetadataJoinTheirServicesOnceItIsPublished() throws InterruptedException {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    ServiceDirectory cart = service(directory, CART);
    ServiceDirectory orders = service(directory, ORDERS);
    CountDownLatch ready = new CountDownLatch(1);
    directory.whenReady(ready::countDown);

    directory.onResync(List.of(instance(1, CART_ONLY), instance(2, ORDERS_ONLY), instance(3, ORDERS_ONLY)));
    assertEquals(3, directory.size());
    assertEquals(1, cart.size());
    assertEquals(0, orders.size(), "no metadata yet: not known to serve anything");
    assertNull(orders.pick(new Endpoint[0], 0));
    assertEquals(1, ready.getCount(), "not ready while a revision's metadata is missing");

    // The first retry comes 200 ms after the first attempt.
    registry.publishMetadata(ORDERS_ONLY);
    assertTrue(ready.await(10, TimeUnit.SECONDS), "ready once the metadata is in");
    assertEquals(2, orders.size());
    assertEquals(1, cart.size());

    // Ready now: a late waiter runs at once, on the caller's thread.
    Thread[] ranOn = new Thread[1];
    directory.whenReady(() -> ranOn[0] = Thread.currentThread());
    assertSame(Thread.currentThread(), ranOn[0]);
  }

  @Test
  void whenReadyWaitsForTheFirstListAndItsMetadata() throws InterruptedException {
    registry.publishMetadata(CART_ONLY);
    ApplicationDirectory directory = directory(settings(0, true));
    CountDownLatch ready = new CountDownLatch(2);
    directory.whenReady(ready::countDown);
    directory.whenReady(ready::countDown);
    assertEquals(2, ready.getCount());
    assertEquals(0, scheduler.getTaskCount(), "no waiter was started before the first list");

    directory.onResync(List.of(instance(1, CART_ONLY)));
    assertTrue(ready.await(10, TimeUnit.SECONDS), "both waiters ran");
  }

  @Test
  void anEmptyFirstListIsReadyToo() throws InterruptedException {
    ApplicationDirectory directory = directory(settings(0, true));
    CountDownLatch ready = new CountDownLatch(1);
    directory.whenReady(ready::countDown);
    directory.onResync(List.of());
    assertTrue(ready.await(10, TimeUnit.SECONDS));
    assertEquals(0, directory.size());
  }

  @Test
  void snapshotRoundTripsIntoANewDirectory(@TempDir Path folder) throws InterruptedException {
    registry.publishMetadata(CART_ONLY);
    registry.publishMetadata(ORDERS_ONLY);
    Snapshots snapshots = new Snapshots(folder);
    DirectorySettings settings = settings(0, true);
    try (ManualClock clock = new ManualClock()) {
      // Snapshots are written settings' snapshot delay (1 ms) after a change, on the clock.
      ApplicationDirectory writer = new ApplicationDirectory(APP, registry, clock.scheduler(), settings, snapshots);
      writer.onResync(List.of(instance(1, CART_ONLY), instance(2, CART_ONLY).withWeight(250),
          instance(3, ORDERS_ONLY).withWeight(0)));
      clock.advance(Duration.ofMillis(1));
      assertEquals(3, savedPorts(snapshots).size(), "the snapshot is written");
      writer.onChanges(List.of(InstanceChange.removed(instance(1, CART_ONLY))));
      clock.advance(Duration.ofMillis(1));
      assertEquals(2, savedPorts(snapshots).size(), "the snapshot is rewritten after a change");
      writer.onChanges(List.of(InstanceChange.added(instance(1, CART_ONLY))));
      clock.advance(Duration.ofMillis(1));
      assertEquals(3, savedPorts(snapshots).size(), "and again");
    }

    // A consumer restarting while the registry knows nothing (and has no metadata).
    InProcessRegistry down = new InProcessRegistry();
    try {
      ApplicationDirectory reader = new ApplicationDirectory(APP, down, scheduler, settings, snapshots);
      ServiceDirectory cart = service(reader, CART);
      CountDownLatch ready = new CountDownLatch(1);
      reader.whenReady(ready::countDown);
      reader.restoreSnapshot();
      ServiceDirectory orders = service(reader, ORDERS);

      Map<Integer, Endpoint> restored = endpointsByPort(reader);
      assertEquals(List.of(1, 2, 3), restored.keySet().stream().sorted().toList());
      assertEquals(100, restored.get(1).weight());
      assertEquals(250, restored.get(2).weight());
      assertEquals(0, restored.get(3).weight());
      assertEquals(CART_ONLY.revision(), restored.get(2).group.revision);
      assertEquals(ORDERS_ONLY, restored.get(3).group.metadata, "metadata came from the snapshot");
      assertEquals(2, cart.size());
      assertEquals(1, orders.size());
      assertTrue(ready.await(10, TimeUnit.SECONDS), "a restored snapshot makes the directory ready");

      // The registry's first list, empty because it lost its state, does not wipe the snapshot.
      reader.onResync(List.of());
      assertEquals(3, reader.size());
      // A list with content replaces it, keeping the endpoints of instances still there.
      reader.onResync(List.of(instance(2, CART_ONLY).withWeight(250)));
      assertEquals(Map.of(2, restored.get(2)), endpointsByPort(reader));
      // Once synced, a snapshot is not restored over the registry's word.
      reader.restoreSnapshot();
      assertEquals(1, reader.size());
    } finally {
      down.close();
    }
  }

  private static List<Integer> savedPorts(Snapshots snapshots) {
    Snapshots.Application saved = snapshots.read(APP);
    return saved == null ? List.of() : saved.instances().stream().map(ServiceInstance::port).sorted().toList();
  }

  @Test
  void unreadableSnapshotIsIgnoredWithAWarning(@TempDir Path folder) throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    Path file = snapshotFile(snapshots, folder);
    Files.writeString(file, "{\"application\":\"shop\",\"instances\":[{\"host\":\"10.0.0.1\",");

    ApplicationDirectory directory = new ApplicationDirectory(APP, registry, scheduler, settings(0, true), snapshots);
    CountDownLatch ready = new CountDownLatch(1);
    directory.whenReady(ready::countDown);
    String log = Logged.during(directory::restoreSnapshot);
    assertTrue(log.contains("Ignored the unreadable registry snapshot"), log);
    assertEquals(0, directory.size());
    assertEquals(1, ready.getCount(), "still waiting for the registry");

    registry.publishMetadata(CART_ONLY);
    directory.onResync(List.of(instance(1, CART_ONLY)));
    assertEquals(1, directory.size());
  }

  @Test
  void snapshotWithoutItsListsIsIgnoredWithAWarning(@TempDir Path folder) throws IOException {
    Snapshots snapshots = new Snapshots(folder);
    Path file = snapshotFile(snapshots, folder);
    Files.writeString(file, "{\"application\":\"shop\"}");

    ApplicationDirectory directory = new ApplicationDirectory(APP, registry, scheduler, settings(0, true), snapshots);
    CountDownLatch ready = new CountDownLatch(1);
    directory.whenReady(ready::countDown);
    String log = Logged.during(directory::restoreSnapshot);
    assertTrue(log.contains("Ignored the malformed registry snapshot"), log);
    assertEquals(0, directory.size());
    assertEquals(1, ready.getCount(), "still waiting for the registry");
  }

  @Test
  void malformedEntriesOfASnapshotAreSkippedAndTheRestRestored(@TempDir Path folder) throws IOException {
    registry.publishMetadata(CART_ONLY);
    Snapshots snapshots = new Snapshots(folder);
    Path file = snapshotFile(snapshots, folder);
    String rev = CART_ONLY.revision();
    Files.writeString(file, "{\"application\":\"shop\",\"instances\":["
        + "{\"host\":\"10.0.0.1\",\"port\":70000,\"weight\":100,\"revision\":\"" + rev + "\"},"
        + "{\"host\":\"10.0.0.1\",\"port\":8,\"weight\":100,\"revision\":\"" + rev + "\"}],"
        + "\"revisions\":[{\"revision\":\"not-the-hash\",\"services\":[]}]}");

    ApplicationDirectory directory = new ApplicationDirectory(APP, registry, scheduler, settings(0, true), snapshots);
    ServiceDirectory cart = service(directory, CART);
    String log = Logged.during(directory::restoreSnapshot);
    assertTrue(log.contains("skipped a malformed instance"), log);
    assertTrue(log.contains("skipped metadata not-the-hash"), log);
    assertEquals(List.of(8), List.copyOf(endpointsByPort(directory).keySet()));
    // Its revision's metadata was not in the snapshot: fetched from the registry.
    assertEquals(1, cart.size());
  }

  /** Where {@code snapshots} keeps the application's file: written once through it, then found. */
  private static Path snapshotFile(Snapshots snapshots, Path folder) throws IOException {
    snapshots.write(APP, List.of(instance(1, CART_ONLY)), List.of(CART_ONLY));
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> all = files.toList();
      assertEquals(1, all.size(), all.toString());
      assertNotNull(snapshots.read(APP));
      return all.get(0);
    }
  }
}
