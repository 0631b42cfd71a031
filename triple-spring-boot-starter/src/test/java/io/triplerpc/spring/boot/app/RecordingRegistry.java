package io.triplerpc.spring.boot.app;

import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** A real registry that tells the test when an instance is withdrawn, before withdrawing it. */
public final class RecordingRegistry implements Registry {

  private final Registry registry;
  private final Consumer<ServiceInstance> beforeUnregister;

  public RecordingRegistry(Registry registry, Consumer<ServiceInstance> beforeUnregister) {
    this.registry = registry;
    this.beforeUnregister = beforeUnregister;
  }

  @Override
  public CompletableFuture<Void> register(ServiceInstance instance) {
    return registry.register(instance);
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    beforeUnregister.accept(instance);
    return registry.unregister(instance);
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
    return registry.publishMetadata(info);
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    return registry.metadata(application, revision);
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    return registry.map(serviceName, application);
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    return registry.applications(serviceName);
  }

  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    return registry.subscribe(application, listener);
  }

  @Override
  public void close() {
    registry.close();
  }

  @Override
  public String toString() {
    return "recording " + registry;
  }
}
