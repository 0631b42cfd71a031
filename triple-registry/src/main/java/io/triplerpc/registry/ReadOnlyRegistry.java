package io.triplerpc.registry;

import java.util.concurrent.CompletableFuture;

/**
 * A registry that lists addresses found elsewhere (a fixed list, DNS): it takes no registration,
 * mapping or metadata, and says so naming what it is.
 */
abstract class ReadOnlyRegistry implements Registry {

  /** What the registry lists, for messages: "A static address list", "DNS". */
  abstract String kind();

  @Override
  public CompletableFuture<Void> register(ServiceInstance instance) {
    return readOnly();
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    return readOnly();
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
    return readOnly();
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(kind() + " has no metadata"));
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    return readOnly();
  }

  private CompletableFuture<Void> readOnly() {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(kind() + " is read-only"));
  }
}
