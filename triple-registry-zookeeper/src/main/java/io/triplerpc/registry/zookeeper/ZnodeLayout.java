package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Where a registry's records live in ZooKeeper and what they hold: Triple's own tree
 * ({@link TripleLayout}) or Apache Dubbo 3's ({@link DubboLayout}). The registry keeps what both
 * share (the session, the ephemeral instance znodes, subscriptions); a layout names the znodes,
 * encodes and decodes instances, and does the rest: metadata and mapping.
 *
 * <p>Thread-safe. Methods returning futures never block; {@link #decodeInstance} and
 * {@link #instanceRemoved} are called on the registry's notifier thread.
 */
interface ZnodeLayout {

  /** The parent of {@code application}'s instance znodes. */
  String instancesPath(String application);

  /** The ephemeral znode of {@code instance}. */
  String instancePath(ServiceInstance instance);

  /** The payload of {@code instance}'s znode. */
  byte[] encodeInstance(ServiceInstance instance);

  /**
   * The instance of {@code application} in the znode named {@code name} holding {@code payload}.
   *
   * @throws IllegalArgumentException if the znode is not an instance; the message says why
   */
  ServiceInstance decodeInstance(String application, String name, byte[] payload);

  /** The instance znode {@code name} of {@code application} is gone. */
  default void instanceRemoved(String application, String name) {}

  /** Stores {@code metadata} under its application and revision, once. */
  CompletableFuture<Void> publishMetadata(MetadataInfo metadata);

  /** The metadata of {@code application} at {@code revision}; fails if it cannot be had. */
  CompletableFuture<MetadataInfo> metadata(String application, String revision);

  /** Records that {@code application} serves {@code serviceName}. */
  CompletableFuture<Void> map(String serviceName, String application);

  /** The applications that serve {@code serviceName}; empty if none is known. */
  CompletableFuture<Set<String>> applications(String serviceName);

  /** Releases what the layout holds (clients it opened); the registry closes the session. */
  default void close() {}
}
