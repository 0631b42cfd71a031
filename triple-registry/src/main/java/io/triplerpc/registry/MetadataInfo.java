package io.triplerpc.registry;

import io.triplerpc.spi.ServerInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What one revision of an application serves: its services and their parameters. A registry stores
 * it once per revision, shared by every instance that names the revision.
 *
 * <p>The revision is a hash of the services sorted by name, so instances serving the same services
 * share it whatever order they were added in. Metadata that another system published under a
 * revision of its own (Apache Dubbo's, an MD5 of its service records) is {@link #named} instead.
 */
public final class MetadataInfo {

  private final String application;
  private final String revision;
  private final List<ServerInfo.Service> services;
  /** Whether the revision is the hash of the services; false when another system named it. */
  private final boolean hashed;

  private MetadataInfo(String application, String revision, List<ServerInfo.Service> services, boolean hashed) {
    this.application = Objects.requireNonNull(application, "application");
    this.revision = Objects.requireNonNull(revision, "revision");
    this.services = services;
    this.hashed = hashed;
  }

  /** The metadata of {@code application} serving {@code services}; the revision is computed. */
  public static MetadataInfo of(String application, List<ServerInfo.Service> services) {
    List<ServerInfo.Service> sorted = sorted(services);
    return new MetadataInfo(application, revisionOf(sorted), sorted, true);
  }

  /**
   * Metadata that another system published under a revision it computed its own way, such as an
   * Apache Dubbo application's (an MD5 of its service records, which hold more than Triple keeps):
   * the revision is taken as given and never checked against {@code services}.
   *
   * @throws IllegalArgumentException if {@code revision} is empty
   */
  public static MetadataInfo named(String application, String revision, List<ServerInfo.Service> services) {
    Objects.requireNonNull(revision, "revision");
    if (revision.isEmpty()) {
      throw new IllegalArgumentException("revision is empty");
    }
    return new MetadataInfo(application, revision, sorted(services), false);
  }

  /**
   * Metadata read back from a registry under {@code revision}.
   *
   * @throws IllegalArgumentException if {@code revision} is not the hash of {@code services}
   */
  public static MetadataInfo restore(String application, String revision, List<ServerInfo.Service> services) {
    List<ServerInfo.Service> sorted = sorted(services);
    String computed = revisionOf(sorted);
    if (!computed.equals(revision)) {
      throw new IllegalArgumentException(
          "Metadata of " + application + " does not match its revision " + revision + " (computed " + computed + ")");
    }
    return new MetadataInfo(application, revision, sorted, true);
  }

  private static List<ServerInfo.Service> sorted(List<ServerInfo.Service> services) {
    List<ServerInfo.Service> sorted = new ArrayList<>(services);
    sorted.sort(Comparator.comparing(ServerInfo.Service::name)
        .thenComparing(ServerInfo.Service::group)
        .thenComparing(ServerInfo.Service::version));
    return List.copyOf(sorted);
  }

  private static String revisionOf(List<ServerInfo.Service> sorted) {
    StringBuilder text = new StringBuilder();
    for (ServerInfo.Service service : sorted) {
      text.append(service.name()).append('|').append(service.version()).append('|').append(service.group())
          .append('|').append(service.serialization()).append('|').append(String.join(",", service.methods()))
          .append('\n');
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
    }
  }

  /** The application. */
  public String application() {
    return application;
  }

  /**
   * The revision: 24 hex digits of the SHA-256 of the sorted services, or for {@link #named} metadata
   * whatever the publishing system named it.
   */
  public String revision() {
    return revision;
  }

  /** Whether the revision is the hash of the services ({@link #of}, {@link #restore}); false if {@link #named}. */
  public boolean hashed() {
    return hashed;
  }

  /** The services, sorted by name. */
  public List<ServerInfo.Service> services() {
    return services;
  }

  /** Whether this revision serves {@code serviceName} in any export. */
  public boolean serves(String serviceName) {
    for (ServerInfo.Service service : services) {
      if (service.name().equals(serviceName)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The export of {@code serviceName} with {@code version} and {@code group} (exactly; {@code "*"} matches
   * any, empty only none), the first in order when a wildcard matches several; null if none is served.
   */
  public ServerInfo.Service export(String serviceName, String version, String group) {
    for (ServerInfo.Service service : services) {
      if (service.name().equals(serviceName) && matches(version, service.version())
          && matches(group, service.group())) {
        return service;
      }
    }
    return null;
  }

  private static boolean matches(String wanted, String served) {
    return wanted.equals("*") || wanted.equals(served);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MetadataInfo
        && ((MetadataInfo) o).revision.equals(revision)
        && ((MetadataInfo) o).application.equals(application)
        && ((MetadataInfo) o).services.equals(services);
  }

  @Override
  public int hashCode() {
    return revision.hashCode();
  }

  @Override
  public String toString() {
    return "MetadataInfo{" + application + '@' + revision + ", " + services.size() + " services}";
  }
}
