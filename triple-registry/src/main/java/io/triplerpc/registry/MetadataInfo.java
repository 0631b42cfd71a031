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
 * share it whatever order they were added in.
 */
public final class MetadataInfo {

  private final String application;
  private final String revision;
  private final List<ServerInfo.Service> services;

  private MetadataInfo(String application, String revision, List<ServerInfo.Service> services) {
    this.application = Objects.requireNonNull(application, "application");
    this.revision = Objects.requireNonNull(revision, "revision");
    this.services = services;
  }

  /** The metadata of {@code application} serving {@code services}; the revision is computed. */
  public static MetadataInfo of(String application, List<ServerInfo.Service> services) {
    List<ServerInfo.Service> sorted = sorted(services);
    return new MetadataInfo(application, revisionOf(sorted), sorted);
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
    return new MetadataInfo(application, revision, sorted);
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

  /** The revision: 24 hex digits of the SHA-256 of the sorted services. */
  public String revision() {
    return revision;
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
