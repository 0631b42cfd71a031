package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SnapshotWriter} alone: what it schedules is recorded and run by hand. */
class SnapshotWriterTest {

  private static final String APP = "shop";
  private static final MetadataInfo CART = MetadataInfo.of(APP,
      List.of(new ServerInfo.Service("demo.Cart", List.of("call"), "proto", "", "")));
  private static final long DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(7);

  private final Object lock = new Object();
  private final List<Runnable> scheduled = new ArrayList<>();
  private final List<Long> delays = new ArrayList<>();
  /** The directory's state as the writer will take it. */
  private List<ServiceInstance> state = List.of();
  private boolean takenUnderLock = true;

  private SnapshotWriter writer(Snapshots snapshots) {
    return new SnapshotWriter(snapshots, APP, lock, () -> {
      takenUnderLock &= Thread.holdsLock(lock);
      return new Snapshots.Application(state, List.of(CART));
    }, (task, delay, unit) -> {
      scheduled.add(task);
      delays.add(unit.toNanos(delay));
    }, DELAY_NANOS);
  }

  private void changed(SnapshotWriter writer, int... ports) {
    List<ServiceInstance> instances = new ArrayList<>();
    for (int port : ports) {
      instances.add(ServiceInstance.of(APP, "10.0.0.1", port, CART.revision()));
    }
    synchronized (lock) {
      state = instances;
      writer.changed();
    }
  }

  private static List<Integer> savedPorts(Snapshots snapshots) {
    Snapshots.Application saved = snapshots.read(APP);
    return saved == null ? null : saved.instances().stream().map(ServiceInstance::port).toList();
  }

  @Test
  void aBurstOfChangesIsWrittenOnceAfterTheDelay(@TempDir Path folder) {
    Snapshots snapshots = new Snapshots(folder);
    SnapshotWriter writer = writer(snapshots);
    changed(writer, 1);
    changed(writer, 1, 2);
    changed(writer, 1, 2, 3);
    assertEquals(List.of(DELAY_NANOS), delays, "one write scheduled for the burst");
    assertNull(snapshots.read(APP), "nothing written before the delay");

    scheduled.remove(0).run();
    assertEquals(List.of(1, 2, 3), savedPorts(snapshots), "the state when the write ran");
    assertEquals(List.of(CART), snapshots.read(APP).metadata());
    assertTrue(takenUnderLock);

    changed(writer, 2);
    assertEquals(1, scheduled.size(), "a later change schedules another write");
    scheduled.remove(0).run();
    assertEquals(List.of(2), savedPorts(snapshots));
  }

  @Test
  void flushWritesOnlyWhenAWriteIsPending(@TempDir Path folder) {
    Snapshots snapshots = new Snapshots(folder);
    SnapshotWriter writer = writer(snapshots);
    writer.flush();
    assertNull(snapshots.read(APP), "nothing changed, nothing written");

    changed(writer, 4);
    writer.flush();
    assertEquals(List.of(4), savedPorts(snapshots));
    assertTrue(takenUnderLock);

    changed(writer, 5);
    assertEquals(2, scheduled.size(), "the flush ended the pending write: a change schedules a new one");
  }
}
