package io.triplerpc.registry;

import java.util.Map;
import java.util.Objects;

/**
 * One running instance of an application, as a registry holds it: where it listens and which
 * metadata revision it serves. One record per instance, whatever the number of its services.
 *
 * <p>Immutable. Two instances are the same instance when their application, host and port are equal
 * ({@link #sameAddress}); {@link #equals} also compares weight, revision, ports and start time.
 */
public final class ServiceInstance {

  /** The weight of an instance registered without one. */
  public static final int DEFAULT_WEIGHT = 100;

  private final String application;
  private final String host;
  private final int port;
  private final int weight;
  private final String revision;
  /** Ports of other protocols by name; usually empty, as one Triple port serves every protocol. */
  private final Map<String, Integer> extraPorts;
  /** When the instance started (epoch milliseconds, as Dubbo's {@code timestamp}), or 0 if unknown. */
  private final long startTimeMillis;

  private ServiceInstance(
      String application, String host, int port, int weight, String revision, Map<String, Integer> extraPorts) {
    this(application, host, port, weight, revision, extraPorts, 0);
  }

  private ServiceInstance(String application, String host, int port, int weight, String revision,
      Map<String, Integer> extraPorts, long startTimeMillis) {
    this.application = requireText(application, "application");
    this.host = requireText(host, "host");
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    if (weight < 0) {
      throw new IllegalArgumentException("negative weight: " + weight);
    }
    this.port = port;
    this.weight = weight;
    this.revision = requireText(revision, "revision");
    this.extraPorts = extraPorts.isEmpty() ? Map.of() : Map.copyOf(extraPorts);
    if (startTimeMillis < 0) {
      throw new IllegalArgumentException("negative start time: " + startTimeMillis);
    }
    this.startTimeMillis = startTimeMillis;
  }

  private static String requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(name + " is empty");
    }
    return value;
  }

  /**
   * An instance of {@code application} at {@code host:port} serving metadata {@code revision}, with
   * the default weight.
   *
   * @throws IllegalArgumentException if a name is empty or the port is out of range
   */
  public static ServiceInstance of(String application, String host, int port, String revision) {
    return new ServiceInstance(application, host, port, DEFAULT_WEIGHT, revision, Map.of());
  }

  /** This instance with another weight (0 keeps it registered but unpicked by weighted balancers). */
  public ServiceInstance withWeight(int weight) {
    return weight == this.weight
        ? this
        : new ServiceInstance(application, host, port, weight, revision, extraPorts, startTimeMillis);
  }

  /**
   * This instance, started at {@code startTimeMillis} (epoch milliseconds; 0 for unknown): consumers
   * ramp a new instance's weight up over their warm-up window from then, as Dubbo's do from its
   * {@code timestamp}.
   */
  public ServiceInstance withStartTime(long startTimeMillis) {
    return startTimeMillis == this.startTimeMillis
        ? this
        : new ServiceInstance(application, host, port, weight, revision, extraPorts, startTimeMillis);
  }

  /** When the instance started, in epoch milliseconds; 0 if the registry did not say. */
  public long startTimeMillis() {
    return startTimeMillis;
  }

  /** This instance serving another metadata revision. */
  public ServiceInstance withRevision(String revision) {
    return revision.equals(this.revision)
        ? this
        : new ServiceInstance(application, host, port, weight, revision, extraPorts, startTimeMillis);
  }

  /** This instance with ports of other protocols, by protocol name (such as {@code "dubbo"}). */
  public ServiceInstance withExtraPorts(Map<String, Integer> ports) {
    return new ServiceInstance(application, host, port, weight, revision, ports, startTimeMillis);
  }

  /** The application this instance belongs to. */
  public String application() {
    return application;
  }

  /** The host consumers connect to. */
  public String host() {
    return host;
  }

  /** The Triple port (gRPC, HTTP and gRPC-Web share it). */
  public int port() {
    return port;
  }

  /** The relative weight for weighted balancing; {@value #DEFAULT_WEIGHT} by default. */
  public int weight() {
    return weight;
  }

  /** The metadata revision: names the list of services this instance serves, see {@link MetadataInfo}. */
  public String revision() {
    return revision;
  }

  /** Ports of other protocols by name; empty unless set. */
  public Map<String, Integer> extraPorts() {
    return extraPorts;
  }

  /** {@code host:port}, unique within an application. */
  public String address() {
    return host.indexOf(':') >= 0 ? '[' + host + "]:" + port : host + ':' + port;
  }

  /** Whether {@code other} is the same instance (application, host and port), perhaps changed. */
  public boolean sameAddress(ServiceInstance other) {
    return port == other.port && host.equals(other.host) && application.equals(other.application);
  }

  /** A hash of application, host and port, consistent with {@link #sameAddress}. */
  public int addressHash() {
    return (application.hashCode() * 31 + host.hashCode()) * 31 + port;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ServiceInstance)) {
      return false;
    }
    ServiceInstance other = (ServiceInstance) o;
    return sameAddress(other) && weight == other.weight && revision.equals(other.revision)
        && extraPorts.equals(other.extraPorts) && startTimeMillis == other.startTimeMillis;
  }

  @Override
  public int hashCode() {
    return addressHash();
  }

  @Override
  public String toString() {
    return application + '@' + address() + "{weight=" + weight + ", revision=" + revision
        + (extraPorts.isEmpty() ? "" : ", ports=" + extraPorts)
        + (startTimeMillis == 0 ? "" : ", started=" + java.time.Instant.ofEpochMilli(startTimeMillis)) + '}';
  }
}
