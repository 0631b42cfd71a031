package io.triplerpc.registry.internal;

import static io.triplerpc.registry.RecordingDiscoveryObserver.export;
import static io.triplerpc.registry.RecordingDiscoveryObserver.lag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.RecordingDiscoveryObserver;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lag of pushes as an {@link ApplicationDirectory} times them, driven as a registry's notifier
 * would drive it, on a {@link ManualClock} that is both the directory's scheduler and the lag's clock:
 * a push is timed from its delivery to its instances being in use, through a coalescing window, a
 * revision's metadata fetch, or the directory giving up on that metadata. Every test also checks that
 * no report came with the directory's lock held.
 */
class PushLagTest {

  private static final String APP = "shop";
  private static final String CART = "demo.Cart";
  private static final String CART_EXPORT = export(CART, "", "");
  private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  private static final MetadataInfo V1 = metadata("add");
  /** A later revision of the cart: one more method. */
  private static final MetadataInfo V2 = metadata("add", "remove");

  private final InProcessRegistry registry = new InProcessRegistry();
  private final ManualClock clock = new ManualClock();
  private final RecordingDiscoveryObserver observer = new RecordingDiscoveryObserver();
  private ApplicationDirectory directory;

  @AfterEach
  void stop() {
    if (directory != null) {
      assertFalse(observer.reportedUnderForbiddenLock(), "a report came with the directory's lock held");
    }
    clock.close();
    registry.close();
  }

  private static MetadataInfo metadata(String... methods) {
    return MetadataInfo.of(APP, List.of(new ServerInfo.Service(CART, List.of(methods), "proto", "", "")));
  }

  private static ServiceInstance instance(int port, MetadataInfo revision) {
    return ServiceInstance.of(APP, "10.0.0.1", port, revision.revision());
  }

  private static List<InstanceChange> added(int port, MetadataInfo revision) {
    return List.of(InstanceChange.added(instance(port, revision)));
  }

  private static String millis(long millis) {
    return lag(APP, TimeUnit.MILLISECONDS.toNanos(millis));
  }

  /** A directory of {@link #APP} reading metadata from {@code metadata}, observed, with the cart's service added. */
  private ApplicationDirectory directory(Registry metadata, long windowNanos) {
    DirectorySettings settings = new DirectorySettings(LoadBalancing.ROUND_ROBIN, 0, windowNanos,
        TimeUnit.MILLISECONDS.toNanos(1), true, TimeUnit.SECONDS.toNanos(1), (d, changes) -> {})
        .withObserver(observer, clock::nanoTime);
    directory = new ApplicationDirectory(APP, metadata, clock.scheduler(), settings, null);
    observer.forbidReportsUnder(directory);
    directory.addService(new ServiceDirectory(CART, LoadBalancing.ROUND_ROBIN));
    clock.runPending();
    return directory;
  }

  @Test
  void pushesCollectedDuringTheWindowAreEachTimedFromTheirArrival() {
    registry.publishMetadata(V1);
    ApplicationDirectory directory = directory(registry, WINDOW_NANOS);
    directory.onResync(List.of(instance(1, V1)));
    directory.onChanges(added(2, V1));
    assertEquals(List.of(millis(0), millis(0)), observer.lagsNow(), "applied as they came; a window opens");

    clock.advance(Duration.ofMillis(50));
    directory.onChanges(added(3, V1));
    clock.advance(Duration.ofMillis(100));
    directory.onChanges(added(4, V1));
    assertEquals(List.of(0, 1, 2), observer.sizesNow(CART_EXPORT), "nothing applied while the window is open");
    clock.advance(Duration.ofMillis(50));
    assertEquals(List.of(millis(0), millis(0), millis(150), millis(50)), observer.lagsNow(),
        "each from its own arrival to the window's end");
    assertEquals(List.of(0, 1, 2, 4), observer.sizesNow(CART_EXPORT));

    // The window is open again; a list arriving meanwhile applies at once, and brings the change it supersedes.
    clock.advance(Duration.ofMillis(30));
    directory.onChanges(added(5, V1));
    clock.advance(Duration.ofMillis(20));
    directory.onResync(List.of(instance(1, V1), instance(5, V1), instance(6, V1)));
    assertEquals(List.of(millis(0), millis(0), millis(150), millis(50), millis(20), millis(0)), observer.lagsNow());
    assertEquals(List.of(0, 1, 2, 4, 3), observer.sizesNow(CART_EXPORT));
  }

  @Test
  void aPushWaitsOnlyForTheMetadataOfItsOwnRevisions() {
    registry.publishMetadata(V1);
    HeldMetadata held = new HeldMetadata(V2.revision());
    ApplicationDirectory directory = directory(held, 0);
    directory.onResync(List.of(instance(1, V1)));
    directory.onChanges(added(2, V2));
    clock.advance(Duration.ofMillis(10));
    directory.onChanges(added(3, V1));
    assertEquals(List.of(millis(0), millis(0)), observer.lagsNow(),
        "the known revision's push is in use at once, the new revision's waits");
    clock.advance(Duration.ofMillis(10));
    directory.onChanges(added(4, V2));
    assertEquals(List.of(0, 1, 2), observer.sizesNow(CART_EXPORT));

    clock.advance(Duration.ofMillis(20));
    held.answer.complete(V2);
    clock.runPending();
    assertEquals(List.of(millis(0), millis(0), millis(40), millis(20)), observer.lagsNow(),
        "both pushes of the new revision, each from its own arrival");
    assertEquals(List.of(0, 1, 2, 4), observer.sizesNow(CART_EXPORT));
  }

  /** After its quick attempts (200 + 400 + 800 + 1,600 ms) the directory stops waiting for a revision's metadata. */
  @Test
  void aRevisionWithoutMetadataIsTimedUntilTheDirectoryGivesUpOnIt() {
    registry.publishMetadata(V1);
    ApplicationDirectory directory = directory(registry, 0);
    directory.onResync(List.of(instance(1, V1)));
    directory.onChanges(added(2, V2));
    clock.advance(Duration.ofMillis(2_999));
    assertEquals(List.of(millis(0)), observer.lagsNow());

    clock.advance(Duration.ofMillis(1));
    assertEquals(List.of(millis(0), millis(3_000)), observer.lagsNow());
    assertEquals(List.of(0, 1), observer.sizesNow(CART_EXPORT), "its instance is not called without metadata");

    // Published late, the metadata still brings the instance in, though the push was timed already.
    registry.publishMetadata(V2);
    clock.advance(Duration.ofSeconds(MetadataFetcher.RETRY_SECONDS));
    assertEquals(List.of(0, 1, 2), observer.sizesNow(CART_EXPORT));
    assertEquals(2, observer.lagsNow().size());
  }

  @Test
  void withoutAnObserverNoClockIsRead() {
    registry.publishMetadata(V1);
    LongSupplier forbidden = () -> {
      throw new AssertionError("the clock was read with no one observing");
    };
    DirectorySettings settings = new DirectorySettings(LoadBalancing.ROUND_ROBIN, 0, WINDOW_NANOS,
        TimeUnit.MILLISECONDS.toNanos(1), true, TimeUnit.SECONDS.toNanos(1), (d, changes) -> {}, null, null, null,
        forbidden, null, HashRing.DEFAULT_NODES, Warmup.DEFAULT_MILLIS, System::currentTimeMillis);
    ApplicationDirectory unobserved = new ApplicationDirectory(APP, registry, clock.scheduler(), settings, null);
    ServiceDirectory cart = new ServiceDirectory(CART, LoadBalancing.ROUND_ROBIN);
    unobserved.addService(cart);
    unobserved.onResync(List.of(instance(1, V1)));
    unobserved.onChanges(added(2, V1));
    unobserved.onChanges(added(3, V2));
    clock.advance(Duration.ofSeconds(10));
    assertEquals(2, cart.size());
    assertEquals(3, unobserved.size());
  }

  /** Metadata from the test's registry, but one revision's answered when the test completes {@link #answer}. */
  private final class HeldMetadata implements Registry {

    private final String heldRevision;
    final CompletableFuture<MetadataInfo> answer = new CompletableFuture<>();
    final List<String> asked = new ArrayList<>();

    HeldMetadata(String heldRevision) {
      this.heldRevision = heldRevision;
    }

    @Override
    public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
      asked.add(revision);
      return revision.equals(heldRevision) ? answer : registry.metadata(application, revision);
    }

    @Override
    public CompletableFuture<Void> register(ServiceInstance instance) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> unregister(ServiceInstance instance) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> map(String serviceName, String application) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Set<String>> applications(String serviceName) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Subscription subscribe(String application, InstanceListener listener) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }
}
