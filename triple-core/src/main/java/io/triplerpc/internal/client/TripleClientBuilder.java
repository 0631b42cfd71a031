package io.triplerpc.internal.client;

import io.triplerpc.CallCredentials;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ClientProtocol;
import io.triplerpc.TripleClient;
import io.triplerpc.internal.stream.AbstractTransportBuilder;
import io.triplerpc.TlsConfig;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.Http3ClientOptions;
import io.triplerpc.internal.stream.Http3ClientTransportFactory;
import io.triplerpc.internal.wire.ServiceExports;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The {@link TripleClient.Builder}: its fields start at {@link ClientTransportOptions#DEFAULTS}, the one
 * place the defaults are stated (the settings a server shares, in {@link AbstractTransportBuilder}), and
 * {@link #transportOptions()} turns them into the transport's options.
 */
public final class TripleClientBuilder extends AbstractTransportBuilder<TripleClient.Builder>
    implements TripleClient.Builder {

  private static final ClientTransportOptions DEFAULTS = ClientTransportOptions.DEFAULTS;

  private InetSocketAddress address;
  private ClusterFactory clusterFactory;
  private CallOptions defaultOptions = CallOptions.DEFAULT;
  private final List<ClientInterceptor> interceptors = new ArrayList<>();
  private CallCredentials credentials;
  private boolean keepAliveWithoutCalls = DEFAULTS.keepAlive().withoutCalls();
  private int connectionsPerAddress = DEFAULTS.connectionsPerAddress();
  private Duration connectTimeout = Duration.ofMillis(DEFAULTS.connectTimeoutMillis());
  private Duration initialBackoff = Duration.ofMillis(DEFAULTS.initialBackoffMillis());
  private Duration maxBackoff = Duration.ofMillis(DEFAULTS.maxBackoffMillis());
  private ClientProtocol protocol = DEFAULTS.protocol();
  private String codec = DEFAULTS.codec();
  private boolean httpGet = DEFAULTS.httpGet();
  private boolean http1 = DEFAULTS.http1();
  /** How calls go over HTTP/3 once {@link #http3()} turned it on. */
  private Http3ClientOptions http3Options = Http3ClientOptions.ONLY;

  /** What the last {@link #serviceConfig} call set; the policies and throttling set in code win over it. */
  private ServiceConfig serviceConfig = ServiceConfig.EMPTY;
  private final Map<String, RetryPolicy> retryPolicies = new LinkedHashMap<>();
  private final Map<String, HedgingPolicy> hedgingPolicies = new LinkedHashMap<>();
  /** 0 for no throttling. */
  private int retryMaxTokens;
  private double retryTokenRatio;
  private long retryBufferPerCall = 1 << 20;
  private long retryBufferPerClient = 16 << 20;

  /** Use {@link TripleClient#builder()}. */
  public TripleClientBuilder() {
    super(DEFAULTS.limits(), DEFAULTS.keepAlive(), "triple-callback");
  }

  @Override
  protected TripleClientBuilder self() {
    return this;
  }

  @Override
  public TripleClientBuilder address(String host, int port) {
    this.address = InetSocketAddress.createUnresolved(Objects.requireNonNull(host, "host"), port);
    this.clusterFactory = null;
    return this;
  }

  @Override
  public TripleClientBuilder address(String hostAndPort) {
    Objects.requireNonNull(hostAndPort, "hostAndPort");
    int scheme = hostAndPort.indexOf("://");
    if (scheme > 0) {
      return cluster(resolve(hostAndPort, hostAndPort.substring(0, scheme).toLowerCase(Locale.ROOT)));
    }
    int colon = hostAndPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostAndPort.length() - 1) {
      throw new IllegalArgumentException("Address must be host:port: " + hostAndPort);
    }
    String host = hostAndPort.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return address(host, Integer.parseInt(hostAndPort.substring(colon + 1)));
  }

  private static ClusterFactory resolve(String target, String scheme) {
    URI uri;
    try {
      uri = new URI(target);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Malformed target " + target + ": " + e.getMessage(), e);
    }
    for (TargetResolver resolver : ServiceLoader.load(TargetResolver.class, TripleClientBuilder.class.getClassLoader())) {
      if (resolver.supports(scheme)) {
        return resolver.resolve(uri);
      }
    }
    throw new IllegalArgumentException(
        "No resolver for " + scheme + ":// targets on the class path (add io.triplerpc:triple-registry): " + target);
  }

  @Override
  public TripleClientBuilder cluster(ClusterFactory factory) {
    this.clusterFactory = Objects.requireNonNull(factory, "factory");
    this.address = null;
    return this;
  }

  @Override
  public TripleClientBuilder defaultCallOptions(CallOptions options) {
    this.defaultOptions = Objects.requireNonNull(options, "options");
    return this;
  }

  @Override
  public TripleClientBuilder intercept(ClientInterceptor... interceptors) {
    for (ClientInterceptor interceptor : interceptors) {
      this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    }
    return this;
  }

  @Override
  public TripleClientBuilder connectionsPerAddress(int connections) {
    this.connectionsPerAddress = connections;
    return this;
  }

  @Override
  public TripleClientBuilder connectTimeout(Duration timeout) {
    this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  @Override
  public TripleClientBuilder reconnectBackoff(Duration initial, Duration max) {
    this.initialBackoff = Objects.requireNonNull(initial, "initial");
    this.maxBackoff = Objects.requireNonNull(max, "max");
    return this;
  }

  @Override
  public TripleClientBuilder protocol(ClientProtocol protocol) {
    this.protocol = Objects.requireNonNull(protocol, "protocol");
    return this;
  }

  @Override
  public TripleClientBuilder callCredentials(CallCredentials credentials) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    return this;
  }

  @Override
  public TripleClientBuilder retryPolicy(RetryPolicy policy, String... servicesOrMethods) {
    return policy(retryPolicies, policy, servicesOrMethods, hedgingPolicies, "a hedging");
  }

  @Override
  public TripleClientBuilder hedgingPolicy(HedgingPolicy policy, String... servicesOrMethods) {
    return policy(hedgingPolicies, policy, servicesOrMethods, retryPolicies, "a retry");
  }

  private <P> TripleClientBuilder policy(Map<String, P> policies, P policy, String[] servicesOrMethods,
      Map<String, ?> other, String otherKind) {
    Objects.requireNonNull(policy, "policy");
    for (String name : policyNames(servicesOrMethods, other, otherKind)) {
      policies.put(name, policy);
    }
    return this;
  }

  /** The names a policy is for ("" for every call), checked, none of them in {@code other}. */
  private static List<String> policyNames(String[] servicesOrMethods, Map<String, ?> other, String otherKind) {
    List<String> names = new ArrayList<>();
    if (servicesOrMethods.length == 0) {
      names.add("");
    }
    for (String name : servicesOrMethods) {
      names.add(ServiceExports.checkServiceOrMethod(name));
    }
    for (String name : names) {
      if (other.containsKey(name)) {
        throw new IllegalArgumentException((name.isEmpty() ? "Every call" : name) + " already has " + otherKind
            + " policy: a call is retried or hedged, not both");
      }
    }
    return names;
  }

  @Override
  public TripleClientBuilder retryThrottling(int maxTokens, double tokenRatio) {
    if (maxTokens < 1 || maxTokens > 1000) {
      throw new IllegalArgumentException("maxTokens must be in [1, 1000]: " + maxTokens);
    }
    if (!(tokenRatio > 0) || Double.isInfinite(tokenRatio)) {
      throw new IllegalArgumentException("tokenRatio must be positive: " + tokenRatio);
    }
    this.retryMaxTokens = maxTokens;
    this.retryTokenRatio = tokenRatio;
    return this;
  }

  @Override
  public TripleClientBuilder serviceConfig(String json) {
    this.serviceConfig = ServiceConfigParser.parse(Objects.requireNonNull(json, "json"));
    return this;
  }

  @Override
  public TripleClientBuilder serviceConfig(Map<String, ?> config) {
    this.serviceConfig = ServiceConfigParser.parse(Objects.requireNonNull(config, "config"));
    return this;
  }

  /**
   * The method configs of the service config, with the policies set in code in place of theirs for the
   * same name (a name the service config leaves out gets a config of its own), and the throttling set in
   * code, else the service config's.
   */
  MethodSettings methodSettings() {
    Map<String, MethodConfig> configs = new LinkedHashMap<>(serviceConfig.methodConfigs());
    retryPolicies.forEach((name, policy) ->
        configs.put(name, configs.getOrDefault(name, MethodConfig.EMPTY).withRetryPolicy(policy)));
    hedgingPolicies.forEach((name, policy) ->
        configs.put(name, configs.getOrDefault(name, MethodConfig.EMPTY).withHedgingPolicy(policy)));
    Throttle throttle = retryMaxTokens != 0 ? new Throttle(retryMaxTokens, retryTokenRatio)
        : serviceConfig.throttling() != null ? serviceConfig.throttling().newThrottle() : null;
    return new MethodSettings(configs, throttle, retryBufferPerCall, retryBufferPerClient);
  }

  @Override
  public TripleClientBuilder retryBufferSize(long perCall, long perClient) {
    if (perCall <= 0 || perClient < perCall) {
      throw new IllegalArgumentException("retryBufferSize needs 0 < perCall <= perClient: " + perCall + ", " + perClient);
    }
    this.retryBufferPerCall = perCall;
    this.retryBufferPerClient = perClient;
    return this;
  }

  @Override
  public TripleClientBuilder keepAliveWithoutCalls(boolean enabled) {
    this.keepAliveWithoutCalls = enabled;
    return this;
  }

  /**
   * The transport's options from what was set.
   *
   * @throws IllegalArgumentException if a value is out of range
   */
  public ClientTransportOptions transportOptions() {
    return new ClientTransportOptions(
        limits(),
        keepAlive(keepAliveWithoutCalls),
        connectionsPerAddress,
        (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()),
        initialBackoff.toMillis(),
        maxBackoff.toMillis(),
        ioThreads(),
        transport(),
        tls(),
        protocol,
        codec,
        http1,
        httpGet,
        http3Enabled() ? http3Options : null);
  }

  @Override
  public TripleClient build() {
    if (address == null && clusterFactory == null) {
      throw new IllegalStateException("address (or cluster) is required");
    }
    if (http3Enabled()) {
      checkHttp3();
    }
    return new TripleClientImpl(address, clusterFactory, transportOptions(), executor(), defaultOptions,
        interceptors, credentials, allowListCopy(), methodSettings(), observers());
  }

  @Override
  public TripleClientBuilder codec(String codec) {
    Objects.requireNonNull(codec, "codec");
    if (!ClientTransportOptions.PROTO.equals(codec) && !ClientTransportOptions.JSON.equals(codec)) {
      throw new IllegalArgumentException("codec must be \"proto\" or \"json\": " + codec);
    }
    this.codec = codec;
    return this;
  }

  @Override
  public TripleClientBuilder connectGet(boolean enabled) {
    this.httpGet = enabled;
    return this;
  }

  @Override
  public TripleClientBuilder http1(boolean enabled) {
    this.http1 = enabled;
    return this;
  }

  @Override
  public TripleClientBuilder http3(Duration fallbackAfter) {
    Objects.requireNonNull(fallbackAfter, "fallbackAfter");
    if (fallbackAfter.isNegative() || fallbackAfter.isZero()) {
      throw new IllegalArgumentException("http3 fallbackAfter must be positive: " + fallbackAfter);
    }
    this.http3Options = new Http3ClientOptions(Math.max(1, fallbackAfter.toMillis()));
    http3();
    return this;
  }

  @Override
  public TripleClientBuilder http3FromAltSvc() {
    this.http3Options = new Http3ClientOptions(Http3ClientOptions.ALT_SVC_FALLBACK_MILLIS, true);
    http3();
    return this;
  }

  /** HTTP/3 needs TLS from files (QUIC's TLS reads them itself), HTTP/2's place, and its plug-in. */
  private void checkHttp3() {
    TlsConfig tls = tls();
    if (tls == null) {
      throw new IllegalStateException("http3() needs tls(...): QUIC is always TLS 1.3");
    }
    if (tls.sslContext() != null) {
      throw new IllegalStateException("http3() needs tls(...) from PEM files (trustCertificates, keyCertChain):"
          + " QUIC's TLS cannot take an SSLContext");
    }
    if (http1) {
      throw new IllegalStateException("http3() and http1(true) exclude each other: choose one HTTP version");
    }
    if (Http3ClientTransportFactory.find() == null) {
      throw new IllegalStateException("http3() needs " + Http3ClientTransportFactory.ARTIFACT
          + " on the class path: add it as a dependency (it brings Netty's QUIC codec and its native library)");
    }
  }
}
