package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.spi.ServerInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MetadataFetcher} alone: what it schedules is recorded and run by hand, so each attempt is
 * a step of the test, not a wait.
 */
class MetadataFetcherTest {

  private static final String APP = "shop";
  private static final MetadataInfo CART = MetadataInfo.of(APP,
      List.of(new ServerInfo.Service("demo.Cart", List.of("call"), "proto", "", "")));

  /** A task the fetcher scheduled, with its delay in milliseconds. */
  private record Scheduled(Runnable task, long delayMillis) {}

  private final InProcessRegistry registry = new InProcessRegistry();
  private final Object lock = new Object();
  private final List<Scheduled> scheduled = new ArrayList<>();
  private final RecordingTarget target = new RecordingTarget();
  private final RevisionGroup group = new RevisionGroup(APP, CART.revision(), false);

  @AfterEach
  void stop() {
    registry.close();
  }

  private MetadataFetcher fetcher(Registry from) {
    return new MetadataFetcher(APP, from, lock,
        (task, delay, unit) -> scheduled.add(new Scheduled(task, unit.toMillis(delay))), target);
  }

  /** Runs the one task scheduled, and returns its delay. */
  private long runScheduled() {
    assertEquals(1, scheduled.size(), scheduled.toString());
    Scheduled next = scheduled.remove(0);
    next.task().run();
    return next.delayMillis();
  }

  @Test
  void metadataFoundAtOnceIsHandedOverAndSettlesTheRevision() {
    registry.publishMetadata(CART);
    fetcher(registry).fetch(group);
    assertEquals(List.of(CART), target.found);
    assertEquals(1, target.settled);
    assertEquals(List.of(), scheduled);
    assertTrue(target.alwaysLocked);
  }

  @Test
  void missingMetadataIsAskedForQuicklyThenSlowlyUntilItIsPublished() {
    fetcher(registry).fetch(group);
    List<Long> delays = new ArrayList<>();
    List<Integer> settledAfter = new ArrayList<>(List.of(target.settled));
    for (int attempt = 2; attempt <= 7; attempt++) {
      delays.add(runScheduled());
      settledAfter.add(target.settled);
    }
    assertEquals(List.of(200L, 400L, 800L, 1600L, 5000L, 5000L), delays, "before attempts 2 to 7");
    assertEquals(List.of(0, 0, 0, 0, 1, 1, 1), settledAfter, "settled by the fifth attempt, once");
    assertEquals(List.of(), target.found);

    registry.publishMetadata(CART);
    assertEquals(5000L, runScheduled());
    assertEquals(List.of(CART), target.found, "metadata published late still arrives");
    assertEquals(1, target.settled, "settled once");
    assertEquals(List.of(), scheduled, "no attempt after it was found");
    assertTrue(target.alwaysLocked);
  }

  @Test
  void aRevisionWhoseInstancesLeftIsAskedForNoMore() {
    fetcher(registry).fetch(group);
    target.current = false;
    runScheduled();
    assertEquals(1, target.settled, "readiness waits no longer");
    assertEquals(List.of(), scheduled);
    assertEquals(List.of(), target.found);
  }

  @Test
  void metadataArrivingAfterItsInstancesLeftIsStillHandedOver() {
    registry.publishMetadata(CART);
    target.current = false;
    fetcher(registry).fetch(group);
    assertEquals(List.of(CART), target.found, "the directory keeps it by revision: the revision may come back");
    assertEquals(1, target.settled);
  }

  @Test
  void aLateAnswerIsHandledOnTheSchedulerNotOnTheRegistrysThread() {
    CompletableFuture<MetadataInfo> answer = new CompletableFuture<>();
    fetcher(new AnsweringRegistry(answer)).fetch(group);
    assertEquals(List.of(), scheduled);

    answer.complete(CART);
    assertEquals(List.of(), target.found, "not handled on the thread that completed the answer");
    assertEquals(0L, runScheduled());
    assertEquals(List.of(CART), target.found);
    assertEquals(1, target.settled);
  }

  /** Records what the fetcher tells it, and whether each call came with the lock held. */
  private final class RecordingTarget implements MetadataFetcher.Target {

    final List<MetadataInfo> found = new ArrayList<>();
    int settled;
    boolean current = true;
    boolean alwaysLocked = true;

    @Override
    public boolean current(RevisionGroup g) {
      alwaysLocked &= Thread.holdsLock(lock);
      return current;
    }

    @Override
    public void found(RevisionGroup g, MetadataInfo info) {
      alwaysLocked &= Thread.holdsLock(lock);
      found.add(info);
    }

    @Override
    public void settled(RevisionGroup g) {
      alwaysLocked &= Thread.holdsLock(lock);
      settled++;
    }
  }

  /** A registry whose only answer is {@code metadata}'s, given when the test completes it. */
  private static final class AnsweringRegistry implements Registry {

    private final CompletableFuture<MetadataInfo> metadata;

    AnsweringRegistry(CompletableFuture<MetadataInfo> metadata) {
      this.metadata = metadata;
    }

    @Override
    public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
      return metadata;
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
