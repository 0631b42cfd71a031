package io.triplerpc.benchmark.registry;

import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.spi.ServerInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-process change source shaped like a big registry: applications {@code app0..appN}, each
 * serving {@code servicesPerApp} services under one revision. It keeps no instances itself (they are
 * generated from their index), so the heap the harness measures is the consumer's alone; the harness
 * drives the subscribed listeners from its own thread, as a registry's event thread would.
 */
final class ScaleSource implements Registry {

  private final Map<String, MetadataInfo> metadata = new ConcurrentHashMap<>();
  private final Map<String, String> applicationOf = new ConcurrentHashMap<>();
  final Map<String, InstanceListener> listeners = new ConcurrentHashMap<>();

  /** The version every declared service is served in, as in Dubbo's push test; consumers ask for it. */
  static final String VERSION = "1.0.0";

  /** Declares {@code application} with {@code services} services; returns their names. */
  List<String> declare(String application, int services) {
    List<ServerInfo.Service> list = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int s = 0; s < services; s++) {
      String name = "org.example." + application + ".Service" + s;
      names.add(name);
      list.add(new ServerInfo.Service(name, List.of("get", "list", "create", "update", "delete"), "hessian2", VERSION, ""));
      applicationOf.put(name, application);
    }
    MetadataInfo info = MetadataInfo.of(application, list);
    metadata.put(application, info);
    return names;
  }

  String revision(String application) {
    return metadata.get(application).revision();
  }

  /** Instance {@code index} of application number {@code app}: a distinct host per index. */
  static ServiceInstance instance(String application, int app, int index, String revision) {
    String host = "10." + (index >>> 16) + '.' + ((index >>> 8) & 0xff) + '.' + (index & 0xff);
    return ServiceInstance.of(application, host, 20000 + app, revision);
  }

  /** The whole list of an application's instances {@code from..to-1}, made now. */
  List<ServiceInstance> instances(String application, int app, int from, int to) {
    String revision = revision(application);
    List<ServiceInstance> list = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      list.add(instance(application, app, i, revision));
    }
    return list;
  }

  @Override
  public CompletableFuture<Void> register(ServiceInstance instance) {
    throw new UnsupportedOperationException("The harness drives changes itself");
  }

  @Override
  public CompletableFuture<Void> unregister(ServiceInstance instance) {
    throw new UnsupportedOperationException("The harness drives changes itself");
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo info) {
    throw new UnsupportedOperationException("Metadata is declared by the harness");
  }

  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    MetadataInfo info = metadata.get(application);
    return info != null && info.revision().equals(revision)
        ? CompletableFuture.completedFuture(info)
        : CompletableFuture.failedFuture(new IllegalStateException("no metadata " + application + "@" + revision));
  }

  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    throw new UnsupportedOperationException("Mappings are declared by the harness");
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    String app = applicationOf.get(serviceName);
    return CompletableFuture.completedFuture(app == null ? Set.of() : Set.of(app));
  }

  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    listeners.put(application, listener);
    return () -> listeners.remove(application, listener);
  }

  @Override
  public void close() {}
}
