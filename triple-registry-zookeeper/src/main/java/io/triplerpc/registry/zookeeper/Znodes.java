package io.triplerpc.registry.zookeeper;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The persistent-znode operations of a registry, each one ZooKeeper call in the background turned
 * into a future. Futures complete on the ZooKeeper client's event thread: what is chained on them
 * must not block. Thread-safe.
 */
final class Znodes {

  /** A znode's payload and the version to compare-and-set it against. */
  record Versioned(byte[] data, int version) {}

  /** The result of a compare-and-set: it took, or someone else changed the znode first. */
  enum Cas { DONE, CONFLICT }

  private final CuratorFramework client;
  /** Whether the registry is closed: then every operation fails at once. */
  private final BooleanSupplier closed;

  Znodes(CuratorFramework client, BooleanSupplier closed) {
    this.client = client;
    this.closed = closed;
  }

  /** The payload and version of {@code path}, or null if there is no such znode. */
  CompletableFuture<Versioned> read(String path) {
    CompletableFuture<Versioned> result = new CompletableFuture<>();
    background(result, event -> {
      KeeperException.Code code = code(event);
      if (code == KeeperException.Code.NONODE) {
        result.complete(null);
      } else if (code != KeeperException.Code.OK) {
        result.completeExceptionally(KeeperException.create(code, path));
      } else {
        byte[] data = event.getData();
        result.complete(new Versioned(data == null ? new byte[0] : data, event.getStat().getVersion()));
      }
    }, callback -> client.getData().inBackground(callback).forPath(path));
    return result;
  }

  /** The names of {@code path}'s children; empty if there is no such znode. */
  CompletableFuture<List<String>> children(String path) {
    CompletableFuture<List<String>> result = new CompletableFuture<>();
    background(result, event -> {
      KeeperException.Code code = code(event);
      if (code == KeeperException.Code.NONODE) {
        result.complete(List.of());
      } else if (code != KeeperException.Code.OK) {
        result.completeExceptionally(KeeperException.create(code, path));
      } else {
        result.complete(List.copyOf(event.getChildren()));
      }
    }, callback -> client.getChildren().inBackground(callback).forPath(path));
    return result;
  }

  /** Creates a persistent znode (and its parents); one that exists already counts as written. */
  CompletableFuture<Void> createPersistent(String path, byte[] payload) {
    CompletableFuture<Void> result = new CompletableFuture<>();
    background(result, event -> {
      KeeperException.Code code = code(event);
      if (code == KeeperException.Code.OK || code == KeeperException.Code.NODEEXISTS) {
        result.complete(null);
      } else {
        result.completeExceptionally(KeeperException.create(code, path));
      }
    }, callback -> client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
        .inBackground(callback).forPath(path, payload));
    return result;
  }

  /**
   * Creates the persistent znode {@code path} (and its parents) holding {@code payload}, unless it
   * exists: then {@link Cas#CONFLICT}, as someone else created it first.
   */
  CompletableFuture<Cas> createIfAbsent(String path, byte[] payload) {
    CompletableFuture<Cas> result = new CompletableFuture<>();
    background(result, event -> {
      KeeperException.Code code = code(event);
      if (code == KeeperException.Code.OK) {
        result.complete(Cas.DONE);
      } else if (code == KeeperException.Code.NODEEXISTS) {
        result.complete(Cas.CONFLICT);
      } else {
        result.completeExceptionally(KeeperException.create(code, path));
      }
    }, callback -> client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
        .inBackground(callback).forPath(path, payload));
    return result;
  }

  /**
   * Sets {@code path}'s payload if its version is still {@code version}: {@link Cas#CONFLICT} if it
   * changed or was deleted meanwhile.
   */
  CompletableFuture<Cas> setIfVersion(String path, byte[] payload, int version) {
    CompletableFuture<Cas> result = new CompletableFuture<>();
    background(result, event -> {
      KeeperException.Code code = code(event);
      if (code == KeeperException.Code.OK) {
        result.complete(Cas.DONE);
      } else if (code == KeeperException.Code.BADVERSION || code == KeeperException.Code.NONODE) {
        result.complete(Cas.CONFLICT);
      } else {
        result.completeExceptionally(KeeperException.create(code, path));
      }
    }, callback -> client.setData().withVersion(version).inBackground(callback).forPath(path, payload));
    return result;
  }

  private static KeeperException.Code code(CuratorEvent event) {
    return KeeperException.Code.get(event.getResultCode());
  }

  /** What to do with a background call's event. */
  private interface Completion {
    void complete(CuratorEvent event);
  }

  /** A Curator call that takes a background callback. */
  private interface BackgroundCall {
    void start(BackgroundCallback callback) throws Exception;
  }

  private void background(CompletableFuture<?> result, Completion completion, BackgroundCall call) {
    if (closed.getAsBoolean()) {
      result.completeExceptionally(new IllegalStateException("Registry closed"));
      return;
    }
    try {
      call.start((c, event) -> {
        try {
          completion.complete(event);
        } catch (RuntimeException e) {
          result.completeExceptionally(e);
        }
      });
    } catch (Exception e) {
      result.completeExceptionally(e);
    }
  }
}
