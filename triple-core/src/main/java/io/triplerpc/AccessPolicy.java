package io.triplerpc;

import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Who may call what on a server: every call is authenticated by one {@link Authenticator} before the
 * service and its interceptors see it (failing with UNAUTHENTICATED, or HTTP 401 for curl), then
 * authorized by the rule of its method (failing with PERMISSION_DENIED, HTTP 403).
 *
 * <pre>{@code
 * AccessPolicy policy = AccessPolicy.builder(Authenticator.bearerToken(tokens::principalOf))
 *     .permitUnauthenticated("grpc.health.v1.Health")                        // probes send no token
 *     .authorize("shop.Orders/Cancel", (who, call) -> admins.contains(who.getName()))
 *     .build();
 * TripleServer.builder().accessPolicy(policy)...
 * }</pre>
 *
 * <p>A method's rule is the one named {@code service/method}, else the one named for its service,
 * else the default: any authenticated caller ({@link Builder#authorizeByDefault} changes it). Rules
 * are looked up once per method when the server is built, never per call. Immutable.
 */
public final class AccessPolicy {

  /** Any principal the authenticator accepted. */
  private static final BiPredicate<Principal, ServerContext> AUTHENTICATED = (principal, call) -> true;

  private final Authenticator authenticator;
  /** Rules by service or {@code service/method}; null values mark names open to unauthenticated callers. */
  private final Map<String, BiPredicate<Principal, ServerContext>> rules;
  private final Set<String> open;
  private final BiPredicate<Principal, ServerContext> defaultRule;

  private AccessPolicy(Builder builder) {
    this.authenticator = builder.authenticator;
    this.rules = Map.copyOf(builder.rules);
    this.open = Set.copyOf(builder.open);
    this.defaultRule = builder.defaultRule;
  }

  /** A policy whose callers {@code authenticator} authenticates. */
  public static Builder builder(Authenticator authenticator) {
    return new Builder(authenticator);
  }

  /** The authenticator of every call that is not {@linkplain #isOpen open}. */
  public Authenticator authenticator() {
    return authenticator;
  }

  /** Whether {@code method} may be called without authentication. */
  public boolean isOpen(MethodDescriptor<?, ?> method) {
    if (open.contains(method.fullMethodName())) {
      return true;
    }
    return !rules.containsKey(method.fullMethodName()) && open.contains(method.serviceName());
  }

  /** The rule an authenticated call of {@code method} must pass. */
  public BiPredicate<Principal, ServerContext> authorization(MethodDescriptor<?, ?> method) {
    BiPredicate<Principal, ServerContext> rule = rules.get(method.fullMethodName());
    if (rule == null && !open.contains(method.fullMethodName())) {
      rule = rules.get(method.serviceName());
    }
    return rule != null ? rule : defaultRule;
  }

  /**
   * The services and full method names this policy opens or gives a rule; a server refuses a policy
   * naming one it does not serve, since a typo there would go unnoticed.
   */
  public Set<String> names() {
    Set<String> names = new java.util.HashSet<>(rules.keySet());
    names.addAll(open);
    return Set.copyOf(names);
  }

  /** Builds an {@link AccessPolicy}. Not thread-safe. */
  public static final class Builder {
    private final Authenticator authenticator;
    private final Map<String, BiPredicate<Principal, ServerContext>> rules = new HashMap<>();
    private final Set<String> open = new java.util.HashSet<>();
    private BiPredicate<Principal, ServerContext> defaultRule = AUTHENTICATED;

    private Builder(Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    }

    /**
     * Lets anyone call a service ({@code grpc.health.v1.Health}) or one method
     * ({@code grpc.health.v1.Health/Check}), with no authentication.
     */
    public Builder permitUnauthenticated(String serviceOrMethod) {
      String name = checkName(serviceOrMethod);
      rules.remove(name);
      open.add(name);
      return this;
    }

    /**
     * Lets an authenticated caller call a service or a method only when {@code rule} holds for its
     * principal and call (else PERMISSION_DENIED); it runs on a service thread before the service and
     * must not block long. A rule may throw a {@link StatusException} to refuse with a status and
     * message of its own.
     */
    public Builder authorize(String serviceOrMethod, BiPredicate<Principal, ServerContext> rule) {
      String name = checkName(serviceOrMethod);
      open.remove(name);
      rules.put(name, Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** The rule of methods no other rule names; by default any authenticated caller passes. */
    public Builder authorizeByDefault(BiPredicate<Principal, ServerContext> rule) {
      this.defaultRule = Objects.requireNonNull(rule, "rule");
      return this;
    }

    public AccessPolicy build() {
      return new AccessPolicy(this);
    }

    private static String checkName(String serviceOrMethod) {
      Objects.requireNonNull(serviceOrMethod, "serviceOrMethod");
      int slash = serviceOrMethod.indexOf('/');
      if (serviceOrMethod.isEmpty() || slash == 0 || slash == serviceOrMethod.length() - 1
          || serviceOrMethod.indexOf('/', slash + 1) >= 0) {
        throw new IllegalArgumentException("Expected a service (pkg.Service) or a method (pkg.Service/Method): "
            + serviceOrMethod);
      }
      return serviceOrMethod;
    }
  }
}
