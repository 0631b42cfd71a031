package io.triplerpc.internal.wire;

import io.triplerpc.CallOptions;

/** The names of a service's exports: its version and group, as Dubbo names them. */
public final class ServiceExports {

  /** The header naming the service version a call asks for. */
  public static final String VERSION_HEADER = "tri-service-version";
  /** The header naming the service group a call asks for. */
  public static final String GROUP_HEADER = "tri-service-group";
  /**
   * The header carrying a call's routing tag: Dubbo's {@code dubbo.tag} attachment, which Dubbo's Triple
   * sends as a header of that name.
   */
  public static final String TAG_HEADER = "dubbo.tag";

  private ServiceExports() {}

  /** Dubbo's service key, {@code group/name:version}, each part present only when not empty. */
  public static String key(String serviceName, String version, String group) {
    if (version.isEmpty() && group.isEmpty()) {
      return serviceName;
    }
    StringBuilder key = new StringBuilder(serviceName.length() + version.length() + group.length() + 2);
    if (!group.isEmpty()) {
      key.append(group).append('/');
    }
    key.append(serviceName);
    if (!version.isEmpty()) {
      key.append(':').append(version);
    }
    return key.toString();
  }

  /** How an export is named in messages: {@code version 1.0.0, group g1}, or {@code no version, no group}. */
  public static String describe(String version, String group) {
    return (version.isEmpty() ? "no version" : "version " + version) + ", "
        + (group.isEmpty() ? "no group" : "group " + group);
  }

  /**
   * Checks that a server's export name can travel in a header and be told apart in a service key: the
   * rule {@link CallOptions#withServiceVersion} applies to callers, without the wildcard.
   *
   * @throws IllegalArgumentException if it cannot
   */
  public static String checkName(String value, String what) {
    if (value.equals("*")) {
      throw new IllegalArgumentException("Service " + what + " '*' is a caller's wildcard, not a name to serve");
    }
    if (what.equals("group")) {
      CallOptions.DEFAULT.withServiceGroup(value);
    } else {
      CallOptions.DEFAULT.withServiceVersion(value);
    }
    return value;
  }

  /**
   * Checks a name that settings are given for: {@code pkg.Service} or {@code pkg.Service/Method}.
   *
   * @throws IllegalArgumentException if it is neither
   */
  public static String checkServiceOrMethod(String serviceOrMethod) {
    java.util.Objects.requireNonNull(serviceOrMethod, "serviceOrMethod");
    int slash = serviceOrMethod.indexOf('/');
    if (serviceOrMethod.isEmpty() || slash == 0 || slash == serviceOrMethod.length() - 1
        || serviceOrMethod.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException("Expected a service (pkg.Service) or a method (pkg.Service/Method): "
          + serviceOrMethod);
    }
    return serviceOrMethod;
  }
}
