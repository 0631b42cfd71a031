package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.zookeeper.DubboFormat.DubboInstance;
import io.triplerpc.registry.zookeeper.DubboFormat.DubboService;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataInfoV2;
import io.triplerpc.registry.zookeeper.internal.proto.ServiceInfoV2;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apache Dubbo 3.3's application-level layout, as its {@code ZookeeperServiceDiscovery} and
 * {@code ZookeeperMetadataReport} keep it, so that Dubbo and Triple applications find each other:
 *
 * <pre>
 * /services/{application}/{host:port}          EPHEMERAL, Curator x-discovery's ServiceInstance JSON
 * /dubbo/mapping/{interface}                   persistent, "app1,app2": the applications serving it
 * /dubbo/metadata/{application}/{revision}     persistent, Dubbo's MetadataInfo JSON (metadata-type remote)
 * </pre>
 *
 * <p>A Triple provider registers with {@code dubbo.metadata.storage-type=remote} and writes its
 * metadata to the report, which Dubbo consumers read whatever their own metadata-type. A Triple
 * consumer reads a Dubbo instance's metadata where the instance says: the report, or (Dubbo's default,
 * {@code local}) the instance's MetadataServiceV2 over Triple.
 */
final class DubboLayout implements ZnodeLayout {

  private static final Logger logger = LoggerFactory.getLogger(DubboLayout.class);

  /** Compare-and-set rounds of one mapping update; each round some writer succeeds, so this bounds contention. */
  static final int MAPPING_ATTEMPTS = 100;
  /** Instances of one revision asked for its metadata, in turn, before a fetch fails. */
  private static final int METADATA_SERVICE_ATTEMPTS = 3;

  /** The metadata report's root, such as {@code /dubbo}. */
  private final String root;
  /** The parent of the applications' instance znodes, such as {@code /services}. */
  private final String servicesRoot;
  private final Znodes znodes;
  private final Clock clock;
  private final DubboMetadataService metadataService;
  /** Every instance decoded by a subscription and not removed since, by application and znode name. */
  private final Map<String, Map<String, DubboInstance>> known = new ConcurrentHashMap<>();

  DubboLayout(String root, String servicesRoot, Znodes znodes, Clock clock, DubboMetadataService metadataService) {
    this.root = ZnodeFormat.checkRoot(root);
    this.servicesRoot = ZnodeFormat.checkRoot(servicesRoot);
    this.znodes = znodes;
    this.clock = clock;
    this.metadataService = metadataService;
  }

  @Override
  public String instancesPath(String application) {
    return servicesRoot + '/' + ZnodeFormat.segment(application, "application");
  }

  @Override
  public String instancePath(ServiceInstance instance) {
    return instancesPath(instance.application()) + '/'
        + ZnodeFormat.segment(DubboFormat.instanceId(instance.host(), instance.port()), "address");
  }

  String mappingPath(String serviceName) {
    return root + "/mapping/" + ZnodeFormat.segment(serviceName, "serviceName");
  }

  String metadataPath(String application, String revision) {
    return root + "/metadata/" + ZnodeFormat.segment(application, "application") + '/'
        + ZnodeFormat.segment(revision, "revision");
  }

  @Override
  public byte[] encodeInstance(ServiceInstance instance) {
    return DubboFormat.encodeInstance(instance, clock.millis());
  }

  @Override
  public ServiceInstance decodeInstance(String application, String name, byte[] payload) {
    DubboInstance decoded;
    try {
      decoded = DubboFormat.decodeInstance(application, name, payload);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a Dubbo instance: " + e.getMessage(), e);
    }
    known.computeIfAbsent(application, a -> new ConcurrentHashMap<>()).put(name, decoded);
    return decoded.instance();
  }

  @Override
  public void instanceRemoved(String application, String name) {
    Map<String, DubboInstance> instances = known.get(application);
    if (instances != null) {
      instances.remove(name);
    }
  }

  @Override
  public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
    return znodes.createPersistent(metadataPath(metadata.application(), metadata.revision()),
        DubboFormat.encodeMetadata(metadata));
  }

  /**
   * From the report if the instances of {@code revision} say their metadata is remote (or none is
   * known); from their MetadataServiceV2 if they say local, each in turn until one answers.
   */
  @Override
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    List<DubboInstance> instances = new ArrayList<>();
    Map<String, DubboInstance> all = known.get(application);
    if (all != null) {
      for (DubboInstance instance : all.values()) {
        if (instance.instance().revision().equals(revision)) {
          instances.add(instance);
        }
      }
    }
    if (instances.isEmpty() || instances.stream().anyMatch(DubboInstance::remoteMetadata)) {
      return report(application, revision, instances.isEmpty());
    }
    Collections.shuffle(instances);
    return fromMetadataService(application, revision, instances, 0, null);
  }

  private CompletableFuture<MetadataInfo> report(String application, String revision, boolean noInstance) {
    String path = metadataPath(application, revision);
    return znodes.read(path).thenApply(znode -> {
      if (znode == null) {
        throw new IllegalStateException("No metadata for " + application + " at revision " + revision + ": nothing at "
            + path + (noInstance ? ", and no instance of that revision is known" : ""));
      }
      try {
        return checked(DubboFormat.decodeMetadata(application, revision, znode.data()), path);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("Malformed Dubbo metadata in " + path + ": " + e.getMessage(), e);
      }
    });
  }

  private CompletableFuture<MetadataInfo> fromMetadataService(
      String application, String revision, List<DubboInstance> instances, int next, Throwable last) {
    if (next >= Math.min(instances.size(), METADATA_SERVICE_ATTEMPTS)) {
      return CompletableFuture.failedFuture(new IllegalStateException("No metadata for " + application
          + " at revision " + revision + " from the MetadataService of its instances: " + last, last));
    }
    DubboInstance instance = instances.get(next);
    ServiceInstance address = instance.instance();
    String where = "MetadataServiceV2 of " + application + " at " + address.address();
    if (!DubboMetadataService.VERSION.equals(instance.metadataServiceVersion())
        || (instance.metadataServiceProtocol() != null
            && !DubboFormat.TRIPLE_PROTOCOL.equals(instance.metadataServiceProtocol()))) {
      IllegalStateException unsupported = new IllegalStateException(application + "'s instance "
          + address.address() + " serves its metadata only through Dubbo's MetadataService "
          + (instance.metadataServiceVersion() == null ? "v1" : instance.metadataServiceVersion()) + " over "
          + (instance.metadataServiceProtocol() == null ? "dubbo" : instance.metadataServiceProtocol())
          + ", which Triple does not call; Triple reads MetadataServiceV2 over tri (Dubbo 3.3 with a tri protocol"
          + " and protobuf-java) or the metadata report (dubbo.application.metadata-type=remote)");
      return fromMetadataService(application, revision, instances, next + 1, unsupported);
    }
    int port = instance.metadataServicePort() > 0 ? instance.metadataServicePort() : address.port();
    return metadataService.fetch(address.host(), port, application, revision)
        .thenApply(answer -> checked(fromV2(application, revision, answer), where))
        .handle((info, failure) -> {
          if (failure == null) {
            return CompletableFuture.completedFuture(info);
          }
          Throwable cause = failure instanceof CompletionException && failure.getCause() != null
              ? failure.getCause() : failure;
          logger.warn("{}: {}", where, cause.toString());
          return fromMetadataService(application, revision, instances, next + 1, cause);
        })
        .thenCompose(future -> future);
  }

  private static MetadataInfo fromV2(String application, String revision, MetadataInfoV2 answer) {
    List<DubboService> services = new ArrayList<>(answer.getServicesCount());
    for (ServiceInfoV2 service : answer.getServicesMap().values()) {
      services.add(new DubboService(service.getName(), service.getGroup(), service.getVersion(), service.getProtocol(),
          service.getPort(), service.getPath(), service.getParamsMap()));
    }
    return DubboFormat.toTriple(application, revision, services);
  }

  /** {@code metadata}, with a warning when it names no service over Triple: then its instances serve nothing here. */
  private static MetadataInfo checked(MetadataInfo metadata, String where) {
    if (metadata.services().isEmpty()) {
      logger.warn("{}: {} at revision {} serves no service over tri; Triple cannot call its instances", where,
          metadata.application(), metadata.revision());
    }
    return metadata;
  }

  /**
   * Adds {@code application} to the comma-separated list in {@code /dubbo/mapping/{serviceName}} with
   * compare-and-set, as Dubbo's {@code MetadataServiceNameMapping} does: read the list and its version,
   * done if it names the application, else write it with the application appended, against that
   * version (or create it); a conflict starts over.
   */
  @Override
  public CompletableFuture<Void> map(String serviceName, String application) {
    ZnodeFormat.segment(application, "application");
    if (application.indexOf(',') >= 0) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("A Dubbo mapping cannot hold an application name with a comma: " + application));
    }
    return map(mappingPath(serviceName), application, 1);
  }

  private CompletableFuture<Void> map(String path, String application, int attempt) {
    return znodes.read(path).thenCompose(znode -> {
      if (znode == null) {
        return znodes.createIfAbsent(path, application.getBytes(StandardCharsets.UTF_8));
      }
      String content = new String(znode.data(), StandardCharsets.UTF_8);
      if (DubboFormat.split(content).contains(application)) {
        return CompletableFuture.completedFuture(Znodes.Cas.DONE);
      }
      String updated = content.isBlank() ? application : content + ',' + application;
      return znodes.setIfVersion(path, updated.getBytes(StandardCharsets.UTF_8), znode.version());
    }).thenCompose(cas -> {
      if (cas == Znodes.Cas.DONE) {
        return CompletableFuture.completedFuture(null);
      }
      if (attempt >= MAPPING_ATTEMPTS) {
        return CompletableFuture.failedFuture(new IllegalStateException("Could not add " + application + " to " + path
            + ": it changed under each of " + attempt + " attempts"));
      }
      return map(path, application, attempt + 1);
    });
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    return znodes.read(mappingPath(serviceName)).thenApply(znode -> znode == null
        ? Set.of()
        : Collections.unmodifiableSet(new LinkedHashSet<>(
            DubboFormat.split(new String(znode.data(), StandardCharsets.UTF_8)))));
  }

  @Override
  public void close() {
    metadataService.close();
  }
}
