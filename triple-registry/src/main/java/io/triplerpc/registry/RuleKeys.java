package io.triplerpc.registry;

import java.util.Objects;

/**
 * The keys Apache Dubbo 3.3 (and Dubbo Admin) gives its governance rules in a config center, in the
 * group {@link #GROUP}. A {@link RuleSource} finds a rule by them.
 */
public final class RuleKeys {

  /** The config center group of every rule: Dubbo's {@code DynamicConfiguration.DEFAULT_GROUP}. */
  public static final String GROUP = "dubbo";

  private static final String TAG_ROUTER = ".tag-router";
  private static final String CONDITION_ROUTER = ".condition-router";
  private static final String CONFIGURATORS = ".configurators";

  private RuleKeys() {}

  /** The tag rule of the provider application {@code application}: {@code <application>.tag-router}. */
  public static String tagRouter(String application) {
    return requireName(application, "application") + TAG_ROUTER;
  }

  /** The condition rule of an application's calls: {@code <application>.condition-router}. */
  public static String applicationConditionRouter(String application) {
    return requireName(application, "application") + CONDITION_ROUTER;
  }

  /**
   * The condition rule of one service: {@code <service>:<version>:<group>.condition-router}, an empty
   * version or group left empty, as Dubbo writes it ({@code org.example.Greeter::.condition-router}).
   */
  public static String serviceConditionRouter(String service, String version, String group) {
    return serviceKey(service, version, group) + CONDITION_ROUTER;
  }

  /** The dynamic configuration of an application: {@code <application>.configurators}. */
  public static String applicationConfigurators(String application) {
    return requireName(application, "application") + CONFIGURATORS;
  }

  /** The dynamic configuration of one service: {@code <service>:<version>:<group>.configurators}. */
  public static String serviceConfigurators(String service, String version, String group) {
    return serviceKey(service, version, group) + CONFIGURATORS;
  }

  /** Dubbo's {@code URL.getColonSeparatedKey()}: the service, then its version and group, blanks empty. */
  private static String serviceKey(String service, String version, String group) {
    requireName(service, "service");
    return service + ':' + blankToEmpty(version) + ':' + blankToEmpty(group);
  }

  private static String blankToEmpty(String value) {
    return value == null || value.isBlank() ? "" : value;
  }

  private static String requireName(String name, String what) {
    Objects.requireNonNull(name, what);
    if (name.isBlank()) {
      throw new IllegalArgumentException(what + " is blank");
    }
    return name;
  }
}
