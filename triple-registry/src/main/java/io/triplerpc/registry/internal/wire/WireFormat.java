package io.triplerpc.registry.internal.wire;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.Metadata;
import io.triplerpc.registry.internal.proto.Service;
import io.triplerpc.spi.ServerInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Conversions between the registry API's types and the {@code triple.registry.v1} messages. */
public final class WireFormat {

  /**
   * The TTL of a lease whose client asks for none: what a registry server grants unless configured otherwise
   * ({@code RegistryServer.DEFAULT_LEASE_TTL}), and what a client heartbeats against until it learns more.
   */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(10);

  private WireFormat() {}

  /** {@code instance} as a message; every field set, the weight included. */
  public static Instance toProto(ServiceInstance instance) {
    return Instance.newBuilder()
        .setApplication(instance.application())
        .setHost(instance.host())
        .setPort(instance.port())
        .setWeight(instance.weight())
        .setRevision(instance.revision())
        .putAllExtraPorts(instance.extraPorts())
        .setStartTimeMillis(instance.startTimeMillis())
        .build();
  }

  /**
   * The instance {@code message} describes; an absent weight is {@link ServiceInstance#DEFAULT_WEIGHT}.
   *
   * @throws IllegalArgumentException if a name is empty, the port or weight is out of range, or the start time negative
   */
  public static ServiceInstance fromProto(Instance message) {
    ServiceInstance instance = ServiceInstance.of(
        message.getApplication(), message.getHost(), message.getPort(), message.getRevision());
    if (message.hasWeight()) {
      instance = instance.withWeight(message.getWeight());
    }
    if (message.getExtraPortsCount() > 0) {
      for (int port : message.getExtraPortsMap().values()) {
        if (port <= 0 || port > 65535) {
          throw new IllegalArgumentException("extra port out of range: " + port);
        }
      }
      instance = instance.withExtraPorts(message.getExtraPortsMap());
    }
    if (message.getStartTimeMillis() != 0) {
      instance = instance.withStartTime(message.getStartTimeMillis());
    }
    return instance;
  }

  /** {@code info} as a message. */
  public static Metadata toProto(MetadataInfo info) {
    Metadata.Builder message = Metadata.newBuilder()
        .setApplication(info.application())
        .setRevision(info.revision());
    for (ServerInfo.Service service : info.services()) {
      message.addServices(Service.newBuilder()
          .setName(service.name())
          .addAllMethods(service.methods())
          .setSerialization(service.serialization())
          .setVersion(service.version())
          .setGroup(service.group()));
    }
    return message.build();
  }

  /**
   * The metadata {@code message} describes.
   *
   * @throws IllegalArgumentException if the application is empty or the revision does not match the services
   */
  public static MetadataInfo fromProto(Metadata message) {
    if (message.getApplication().isEmpty()) {
      throw new IllegalArgumentException("application is empty");
    }
    List<ServerInfo.Service> services = new ArrayList<>(message.getServicesCount());
    for (Service service : message.getServicesList()) {
      services.add(new ServerInfo.Service(service.getName(), service.getMethodsList(), service.getSerialization(),
          service.getVersion(), service.getGroup()));
    }
    return MetadataInfo.restore(message.getApplication(), message.getRevision(), services);
  }
}
