package io.triplerpc.registry;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A service registry at the level of applications: providers register one {@link ServiceInstance}
 * per running instance and publish each {@link MetadataInfo} revision once; consumers map a service
 * to the applications serving it, and subscribe to an application's instances, which are pushed as
 * changes.
 *
 * <p>Backends: {@link InProcessRegistry} (one JVM), the standalone registry server, ZooKeeper
 * ({@code triple-registry-zookeeper}). Thread-safe. Methods that talk to a remote registry return
 * futures and never block; a future fails with the backend's error. Once the registry is closed,
 * its methods may throw {@link IllegalStateException}.
 */
public interface Registry extends AutoCloseable {

  /**
   * Registers {@code instance}, or replaces the registered instance at the same address. The
   * registration lives as long as this registry's session or lease: an instance whose process dies
   * disappears when that expires.
   */
  CompletableFuture<Void> register(ServiceInstance instance);

  /**
   * Changes a registered instance (its weight, revision or ports); subscribers see one UPDATED
   * change. The same as {@link #register}, named for the reader.
   */
  default CompletableFuture<Void> update(ServiceInstance instance) {
    return register(instance);
  }

  /** Removes the instance at {@code instance}'s address; nothing if it is not registered. */
  CompletableFuture<Void> unregister(ServiceInstance instance);

  /** Stores {@code metadata} under its application and revision (once; later calls change nothing). */
  CompletableFuture<Void> publishMetadata(MetadataInfo metadata);

  /** The metadata of {@code application} at {@code revision}; fails if it was never published. */
  CompletableFuture<MetadataInfo> metadata(String application, String revision);

  /** Records that {@code application} serves {@code serviceName}. */
  CompletableFuture<Void> map(String serviceName, String application);

  /** The applications that serve {@code serviceName}; empty if none is known. */
  CompletableFuture<Set<String>> applications(String serviceName);

  /**
   * Pushes {@code application}'s instances to {@code listener}: the whole list first (perhaps
   * empty), then changes, until the subscription is closed.
   */
  Subscription subscribe(String application, InstanceListener listener);

  /**
   * Disconnects: this registry's instances are removed (or expire), subscriptions end. Never blocks
   * for long.
   */
  @Override
  void close();
}
