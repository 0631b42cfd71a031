package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Triple's own tree under one root ({@code /triple} by default); see {@link ZnodeFormat}:
 *
 * <pre>
 * {root}/instances/{application}/{host:port}   EPHEMERAL, {"weight":100,"revision":"...","ports":{...}}
 * {root}/metadata/{application}/{revision}     persistent, written once: {"services":[...]}
 * {root}/mapping/{serviceName}/{application}   persistent, empty
 * </pre>
 */
final class TripleLayout implements ZnodeLayout {

  private final ZnodeFormat format;
  private final Znodes znodes;

  TripleLayout(String root, Znodes znodes) {
    this.format = new ZnodeFormat(root);
    this.znodes = znodes;
  }

  @Override
  public String instancesPath(String application) {
    return format.instancesPath(application);
  }

  @Override
  public String instancePath(ServiceInstance instance) {
    return format.instancePath(instance);
  }

  @Override
  public byte[] encodeInstance(ServiceInstance instance) {
    return ZnodeFormat.encodeInstance(instance);
  }

  @Override
  public ServiceInstance decodeInstance(String application, String name, byte[] payload) {
    return ZnodeFormat.decodeInstance(application, name, payload);
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
    return znodes.createPersistent(
        format.metadataPath(metadata.application(), metadata.revision()), ZnodeFormat.encodeMetadata(metadata));
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    String path = format.metadataPath(application, revision);
    return znodes.read(path).thenApply(znode -> {
      if (znode == null) {
        throw new IllegalStateException("No metadata for " + application + " at revision " + revision + " (" + path
            + ")");
      }
      try {
        return ZnodeFormat.decodeMetadata(application, revision, znode.data());
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("Malformed metadata in " + path + ": " + e.getMessage(), e);
      }
    });
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    return znodes.createPersistent(format.mappingPath(serviceName, application), new byte[0]);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    return znodes.children(format.mappingPath(serviceName)).thenApply(Set::copyOf);
  }
}
