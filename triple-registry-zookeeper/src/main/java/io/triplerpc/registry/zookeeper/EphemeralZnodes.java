package io.triplerpc.registry.zookeeper;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral znodes one registry owns (its instances), kept as wanted for as long as it lives:
 * written again in a new session after the old one expired, and when something else deletes them.
 *
 * <p>Each znode has at most one write in flight, and a write always sends the newest wanted state,
 * so writes to one path can neither reorder (Curator retries and parent creation are asynchronous)
 * nor pile up. Thread-safe; never blocks (all ZooKeeper calls are in the background), and the
 * futures complete on the ZooKeeper client's event thread.
 */
final class EphemeralZnodes {

  private static final Logger logger = LoggerFactory.getLogger(EphemeralZnodes.class);

  private final CuratorFramework client;
  /** Rewrites a wanted znode that was deleted while this registry still wants it. */
  private final CuratorWatcher deletionWatcher = this::deleted;

  private final Object lock = new Object();
  /** Every znode with a wanted state or a write in flight, by path; guarded by lock. */
  private final Map<String, Znode> znodes = new HashMap<>();
  /** Whether {@link #close} was called; guarded by lock. */
  private boolean closed;

  /** One znode's wanted state and its write in flight; every field guarded by lock. */
  private static final class Znode {
    final String path;
    /** The payload wanted, or null if the znode is wanted gone (then removed from the map once gone). */
    byte[] wanted;
    /** Whether the wanted state may differ from ZooKeeper's (changed, write failed, session new). */
    boolean stale;
    /** Whether a write is in flight; the next write starts when it completes. */
    boolean writing;
    /** Futures completed by the next write to start. */
    List<CompletableFuture<Void>> waiting = new ArrayList<>();

    Znode(String path) {
      this.path = path;
    }
  }

  EphemeralZnodes(CuratorFramework client) {
    this.client = client;
  }

  /**
   * Creates the ephemeral znode at {@code path} holding {@code payload}, or sets its payload. The
   * future completes once ZooKeeper holds this payload (or a newer one), and fails if that write
   * failed; the znode stays wanted either way, and is written again on reconnection.
   */
  CompletableFuture<Void> put(String path, byte[] payload) {
    return want(path, payload);
  }

  /** Deletes the znode at {@code path} for good; completes once it is gone. */
  CompletableFuture<Void> delete(String path) {
    return want(path, null);
  }

  private CompletableFuture<Void> want(String path, byte[] payload) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Znode znode;
    synchronized (lock) {
      if (closed) {
        return CompletableFuture.failedFuture(new IllegalStateException("Registry closed"));
      }
      znode = znodes.get(path);
      if (znode == null) {
        if (payload == null) {
          return CompletableFuture.completedFuture(null);
        }
        znode = new Znode(path);
        znodes.put(path, znode);
      }
      znode.wanted = payload;
      znode.stale = true;
      znode.waiting.add(done);
      if (!startWrite(znode)) {
        return done;
      }
    }
    write(znode);
    return done;
  }

  /**
   * Called with the lock held: whether the caller is to {@link #write} {@code znode} now, which it
   * must do once the lock is released.
   */
  private boolean startWrite(Znode znode) {
    if (znode.writing || !znode.stale || closed) {
      return false;
    }
    znode.writing = true;
    return true;
  }

  /** Sends the znode's wanted state; only the thread that won {@link #startWrite} calls it. */
  private void write(Znode znode) {
    byte[] payload;
    List<CompletableFuture<Void>> waiting;
    synchronized (lock) {
      payload = znode.wanted;
      waiting = znode.waiting;
      znode.waiting = new ArrayList<>();
      znode.stale = false;
    }
    try {
      if (payload != null) {
        client.create().orSetData().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
            .inBackground((c, event) -> written(znode, payload, waiting, event))
            .forPath(znode.path, payload);
      } else {
        client.delete()
            .inBackground((c, event) -> written(znode, null, waiting, event))
            .forPath(znode.path);
      }
    } catch (Exception e) {
      // Curator throws here only when it cannot queue the operation (the client is closed).
      finished(znode, false);
      waiting.forEach(future -> future.completeExceptionally(e));
    }
  }

  private void written(Znode znode, byte[] payload, List<CompletableFuture<Void>> waiting, CuratorEvent event) {
    KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
    boolean ok = code == KeeperException.Code.OK || (payload == null && code == KeeperException.Code.NONODE);
    if (ok && payload != null) {
      watch(znode.path);
    } else if (!ok) {
      logger.warn("Could not {} {}: {}", payload == null ? "delete" : "write", znode.path, code);
    }
    finished(znode, ok);
    for (CompletableFuture<Void> future : waiting) {
      if (ok) {
        future.complete(null);
      } else {
        future.completeExceptionally(KeeperException.create(code, znode.path));
      }
    }
  }

  /** The write in flight is over; starts the next if the wanted state changed meanwhile. */
  private void finished(Znode znode, boolean ok) {
    boolean again;
    synchronized (lock) {
      znode.writing = false;
      // A state wanted during the failed write is tried at once; the failed one is left for the
      // next reconnection (or the next change) to retry.
      again = startWrite(znode);
      if (!ok) {
        znode.stale = true;
      }
      if (!again && !znode.stale && znode.wanted == null) {
        znodes.remove(znode.path);
      }
    }
    if (again) {
      write(znode);
    }
  }

  /** Watches for the znode's deletion, which a new session's write or an administrator may cause. */
  private void watch(String path) {
    try {
      client.checkExists().usingWatcher(deletionWatcher)
          .inBackground((c, event) -> {
            if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
              rewrite(path);
            }
          })
          .forPath(path);
    } catch (Exception e) {
      logger.debug("Could not watch {}", path, e);
    }
  }

  private void deleted(WatchedEvent event) {
    if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
      rewrite(event.getPath());
    }
  }

  /** Writes {@code path} again if it is still wanted. */
  private void rewrite(String path) {
    Znode znode;
    synchronized (lock) {
      znode = znodes.get(path);
      if (znode == null || znode.wanted == null) {
        return;
      }
      znode.stale = true;
      if (!startWrite(znode)) {
        return;
      }
    }
    write(znode);
  }

  /**
   * The client is connected again: writes what failed meanwhile, and everything wanted if
   * {@code newSession} (the old session's ephemeral znodes are gone, or about to be).
   */
  void reconnected(boolean newSession) {
    List<Znode> toWrite = new ArrayList<>();
    synchronized (lock) {
      for (Znode znode : znodes.values()) {
        if (newSession && znode.wanted != null) {
          znode.stale = true;
        }
        if (startWrite(znode)) {
          toWrite.add(znode);
        }
      }
    }
    if (newSession && !toWrite.isEmpty()) {
      logger.info("New ZooKeeper session: writing {} instance znodes again", toWrite.size());
    }
    toWrite.forEach(this::write);
  }

  /**
   * Stops writing; futures still waiting fail. The znodes themselves go with the session, which the
   * caller closes.
   */
  void close() {
    List<CompletableFuture<Void>> waiting = new ArrayList<>();
    synchronized (lock) {
      closed = true;
      for (Znode znode : znodes.values()) {
        waiting.addAll(znode.waiting);
        znode.waiting.clear();
      }
      znodes.clear();
    }
    IllegalStateException closedException = new IllegalStateException("Registry closed");
    waiting.forEach(future -> future.completeExceptionally(closedException));
  }
}
