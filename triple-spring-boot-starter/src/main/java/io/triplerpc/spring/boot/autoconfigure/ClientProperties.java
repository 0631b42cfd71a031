package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.ClientProtocol;
import io.triplerpc.TripleClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import org.springframework.core.io.Resource;
import org.springframework.util.unit.DataSize;

/**
 * What each client made for {@code @TripleReference}s takes, as {@code TripleClient.Builder} offers it:
 * under {@code triple.client.*} for every client, under {@code triple.client.targets.<name>.*} for the
 * references naming that target (whose unset properties are those of {@code triple.client.*}). Each is
 * unset by default, and then the builder's default holds.
 */
public abstract class ClientProperties extends TransportProperties {

  /** Deadline of each call made through a @TripleReference; none when unset. */
  private Duration deadline;

  /** TLS to the servers. */
  private final TlsProperties.Client tls = new TlsProperties.Client();

  /**
   * How calls pick one of several servers: round-robin, pick-first, weighted-random, least-active,
   * power-of-two-choices, peak-ewma or consistent-hash (triple-registry's LoadBalancing; its key comes
   * with each call's options). For references through the
   * application's registry and dns:///, static:// and registry:// targets (a target's own ?lb= wins);
   * a host:port target has one server. The registry's weighted-random, and round-robin for dns:///, when unset.
   */
  private String loadBalancing;

  /** Connections to open to each server, used round robin. Triple's 1 when unset. */
  private Integer connectionsPerAddress;

  /** How long to wait for a connection. Triple's 10s when unset. */
  private Duration connectTimeout;

  private final ReconnectBackoff reconnectBackoff = new ReconnectBackoff();

  /** Whether keepalive pings go out on connections without calls too (servers must permit it). Triple's false when unset. */
  private Boolean keepAliveWithoutCalls;

  /** Wire protocol of the calls: GRPC, GRPC_WEB or CONNECT. Triple's GRPC when unset. */
  private ClientProtocol protocol;

  /** Codec of protobuf messages: proto, or json (protobuf's JSON mapping). Triple's proto when unset. */
  private String codec;

  /** Whether Connect unary calls of idempotent methods go as HTTP GET (protocol CONNECT only). Triple's false when unset. */
  private Boolean connectGet;

  /** Whether calls go over HTTP/1.1 instead of HTTP/2 (GRPC_WEB and CONNECT only). Triple's false when unset. */
  private Boolean http1;

  private final RetryThrottling retryThrottling = new RetryThrottling();

  private final RetryBuffer retryBuffer = new RetryBuffer();

  /**
   * gRPC service config JSON: retry and hedging policies and timeouts per method (methodConfig), and
   * retryThrottling. Not with service-config-location.
   */
  private String serviceConfig;

  /** Where the gRPC service config JSON is, such as classpath:service-config.json. Not with service-config. */
  private Resource serviceConfigLocation;

  /**
   * A bearer token sent as "authorization: Bearer ..." on every call (over TLS only, unless
   * cleartext-credentials). Not with call-credentials.
   */
  private String bearerToken;

  /**
   * The name of the CallCredentials bean for every call (over TLS only, unless cleartext-credentials).
   * When unset, the application's one CallCredentials bean, if it has exactly one.
   */
  private String callCredentials;

  /** Whether the credentials go over cleartext connections too: a trusted network only (a mesh's sidecar, a test). */
  private Boolean cleartextCredentials;

  public Duration getDeadline() {
    return deadline;
  }

  public void setDeadline(Duration deadline) {
    this.deadline = TripleServerProperties.positive(deadline, "deadline");
  }

  public TlsProperties.Client getTls() {
    return tls;
  }

  public String getLoadBalancing() {
    return loadBalancing;
  }

  public void setLoadBalancing(String loadBalancing) {
    this.loadBalancing = loadBalancing;
  }

  public Integer getConnectionsPerAddress() {
    return connectionsPerAddress;
  }

  public void setConnectionsPerAddress(Integer connectionsPerAddress) {
    if (connectionsPerAddress != null && connectionsPerAddress < 1) {
      throw new IllegalArgumentException("connections-per-address must be at least 1: " + connectionsPerAddress);
    }
    this.connectionsPerAddress = connectionsPerAddress;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = TripleServerProperties.positive(connectTimeout, "connect-timeout");
  }

  public ReconnectBackoff getReconnectBackoff() {
    return reconnectBackoff;
  }

  public Boolean getKeepAliveWithoutCalls() {
    return keepAliveWithoutCalls;
  }

  public void setKeepAliveWithoutCalls(Boolean keepAliveWithoutCalls) {
    this.keepAliveWithoutCalls = keepAliveWithoutCalls;
  }

  public ClientProtocol getProtocol() {
    return protocol;
  }

  public void setProtocol(ClientProtocol protocol) {
    this.protocol = protocol;
  }

  public String getCodec() {
    return codec;
  }

  public void setCodec(String codec) {
    this.codec = codec;
  }

  public Boolean getConnectGet() {
    return connectGet;
  }

  public void setConnectGet(Boolean connectGet) {
    this.connectGet = connectGet;
  }

  public Boolean getHttp1() {
    return http1;
  }

  public void setHttp1(Boolean http1) {
    this.http1 = http1;
  }

  public RetryThrottling getRetryThrottling() {
    return retryThrottling;
  }

  public RetryBuffer getRetryBuffer() {
    return retryBuffer;
  }

  public String getServiceConfig() {
    return serviceConfig;
  }

  public void setServiceConfig(String serviceConfig) {
    this.serviceConfig = serviceConfig;
  }

  public Resource getServiceConfigLocation() {
    return serviceConfigLocation;
  }

  public void setServiceConfigLocation(Resource serviceConfigLocation) {
    this.serviceConfigLocation = serviceConfigLocation;
  }

  public String getBearerToken() {
    return bearerToken;
  }

  public void setBearerToken(String bearerToken) {
    this.bearerToken = bearerToken;
  }

  public String getCallCredentials() {
    return callCredentials;
  }

  public void setCallCredentials(String callCredentials) {
    this.callCredentials = callCredentials;
  }

  public Boolean getCleartextCredentials() {
    return cleartextCredentials;
  }

  public void setCleartextCredentials(Boolean cleartextCredentials) {
    this.cleartextCredentials = cleartextCredentials;
  }

  /**
   * The balancing as a target's query names it ({@code pick_first}), or null when unset.
   *
   * @throws IllegalStateException naming the property, if it names no balancing
   */
  String loadBalancingName(String prefix) {
    if (loadBalancing == null || loadBalancing.isBlank()) {
      return null;
    }
    String name = loadBalancing.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    if (!LOAD_BALANCINGS.contains("," + name + ",")) {
      throw new IllegalStateException(prefix + ".load-balancing is one of round-robin, pick-first, weighted-random,"
          + " least-active, power-of-two-choices, peak-ewma, consistent-hash: " + loadBalancing);
    }
    return name;
  }

  /** triple-registry's LoadBalancing, named here so that the properties load without that module. */
  private static final String LOAD_BALANCINGS =
      ",round_robin,pick_first,weighted_random,least_active,power_of_two_choices,peak_ewma,consistent_hash,";

  /**
   * Hands what is set, but TLS, credentials and balancing, to {@code builder}.
   *
   * @param prefix the properties' prefix, such as {@code triple.client.targets.users}, for messages
   * @throws IllegalStateException naming the property, if the builder refuses its value
   */
  void applyTo(TripleClient.Builder builder, String prefix) {
    super.applyTo(builder, prefix);
    set(prefix + ".connections-per-address", connectionsPerAddress, builder::connectionsPerAddress);
    set(prefix + ".connect-timeout", connectTimeout, builder::connectTimeout);
    if (reconnectBackoff.initial != null || reconnectBackoff.max != null) {
      set(prefix + ".reconnect-backoff", reconnectBackoff,
          backoff -> builder.reconnectBackoff(both(backoff.initial, backoff.max, prefix + ".reconnect-backoff.initial",
              prefix + ".reconnect-backoff.max"), backoff.max));
    }
    set(prefix + ".keep-alive-without-calls", keepAliveWithoutCalls, builder::keepAliveWithoutCalls);
    set(prefix + ".protocol", protocol, builder::protocol);
    set(prefix + ".codec", codec, builder::codec);
    set(prefix + ".connect-get", connectGet, builder::connectGet);
    set(prefix + ".http1", http1, builder::http1);
    if (retryThrottling.maxTokens != null || retryThrottling.tokenRatio != null) {
      set(prefix + ".retry-throttling", retryThrottling, throttling -> builder.retryThrottling(
          both(throttling.maxTokens, throttling.tokenRatio, prefix + ".retry-throttling.max-tokens",
              prefix + ".retry-throttling.token-ratio"), throttling.tokenRatio));
    }
    if (retryBuffer.perCall != null || retryBuffer.perClient != null) {
      set(prefix + ".retry-buffer", retryBuffer, buffer -> builder.retryBufferSize(
          both(buffer.perCall, buffer.perClient, prefix + ".retry-buffer.per-call", prefix + ".retry-buffer.per-client")
              .toBytes(), buffer.perClient.toBytes()));
    }
    String config = serviceConfigJson(prefix);
    set(prefix + (serviceConfig != null ? ".service-config" : ".service-config-location"), config,
        builder::serviceConfig);
  }

  /** The service config's JSON, from the property or its location; null when neither is set. */
  private String serviceConfigJson(String prefix) {
    if (serviceConfig != null && serviceConfigLocation != null) {
      throw new IllegalStateException(prefix + ".service-config and " + prefix + ".service-config-location are"
          + " both set: give the JSON or where it is");
    }
    if (serviceConfig != null) {
      return serviceConfig;
    }
    if (serviceConfigLocation == null) {
      return null;
    }
    try (InputStream in = serviceConfigLocation.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(prefix + ".service-config-location cannot be read: " + serviceConfigLocation
          + ": " + e.getMessage(), e);
    }
  }

  /** {@code first}, once both halves of a pair are known to be set. */
  private static <T> T both(T first, Object second, String firstProperty, String secondProperty) {
    if (first == null || second == null) {
      throw new IllegalArgumentException(firstProperty + " and " + secondProperty + " go together");
    }
    return first;
  }

  /** Reconnect backoff: the first delay, doubling up to the maximum, with jitter. Triple's 1s and 2m when unset. */
  public static class ReconnectBackoff {

    /** First delay before reconnecting; with max. */
    private Duration initial;

    /** Longest delay between reconnects; with initial. */
    private Duration max;

    public Duration getInitial() {
      return initial;
    }

    public void setInitial(Duration initial) {
      this.initial = TripleServerProperties.positive(initial, "reconnect-backoff.initial");
    }

    public Duration getMax() {
      return max;
    }

    public void setMax(Duration max) {
      this.max = TripleServerProperties.positive(max, "reconnect-backoff.max");
    }
  }

  /** gRPC's retry throttling: off (Triple's default) unless both are set; a service config's retryThrottling also sets it. */
  public static class RetryThrottling {

    /** Tokens the client holds (1 to 1000); each retryable failure takes one, calls go again while more than half are left. */
    private Integer maxTokens;

    /** Tokens each success gives back. */
    private Double tokenRatio;

    public Integer getMaxTokens() {
      return maxTokens;
    }

    public void setMaxTokens(Integer maxTokens) {
      this.maxTokens = maxTokens;
    }

    public Double getTokenRatio() {
      return tokenRatio;
    }

    public void setTokenRatio(Double tokenRatio) {
      this.tokenRatio = tokenRatio;
    }
  }

  /** The request bytes kept to send a call again; a call past either is no longer retried. Triple's 1MB and 16MB when unset. */
  public static class RetryBuffer {

    /** Bytes one call keeps; with per-client. */
    private DataSize perCall;

    /** Bytes all calls of the client keep together; with per-call. */
    private DataSize perClient;

    public DataSize getPerCall() {
      return perCall;
    }

    public void setPerCall(DataSize perCall) {
      this.perCall = perCall;
    }

    public DataSize getPerClient() {
      return perClient;
    }

    public void setPerClient(DataSize perClient) {
      this.perClient = perClient;
    }
  }
}
