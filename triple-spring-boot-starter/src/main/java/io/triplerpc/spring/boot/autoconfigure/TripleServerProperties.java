package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TlsConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The application's Triple server: {@code triple.server.*}, with the settings it shares with clients in
 * {@link TransportProperties}. Unset properties keep the defaults of {@code TripleServer.Builder} (see its
 * Javadoc); the one default of the starter's own is the port, 50051, where the builder's 0 would let
 * the system choose. A value the builder refuses stops the application at start-up with the property's
 * name.
 */
@ConfigurationProperties("triple.server")
public class TripleServerProperties extends TransportProperties {

  /**
   * Whether to run the server. Unset: when a bean's class implements a @TripleService interface. true:
   * always (for services added by a TripleServerCustomizer). false: never.
   */
  private Boolean enabled;

  /** Interface to bind, such as 127.0.0.1; all interfaces when unset. */
  private String host;

  /** Port to listen on; 0 lets the system choose (the port is then local.triple.server.port). */
  private int port = 50051;

  /** Whether beans whose class implements a @TripleService interface are served automatically. */
  private boolean exportServices = true;

  /** Streams a client may have open on one connection. Triple's 1000 when unset. */
  private Integer maxConcurrentStreams;

  /** Bytes all connections together may hold that their clients have not taken. Triple's 256MB when unset. */
  private DataSize maxTotalPendingOutboundBytes;

  /**
   * Calls of each method that may run at once, by service ("pkg.Service") or method
   * ("pkg.Service/Method"); past it a call fails at once with RESOURCE_EXHAUSTED. Names with dots go in
   * brackets: triple.server.max-concurrent-calls[pkg.Greeter]=50.
   */
  private final Map<String, Integer> maxConcurrentCalls = new LinkedHashMap<>();

  /** Closes connections that have had no call for this long; never when unset. */
  private Duration maxConnectionIdle;

  /** Closes connections gracefully once they have lived this long (give or take 10%); never when unset. */
  private Duration maxConnectionAge;

  /**
   * Path of the OpenAPI 3.1 document of the services' REST routes (google.api.http rules, JAX-RS and
   * Spring Web annotations), such as /openapi.json; each service's is served beside it. None when unset.
   */
  private String openApiPath;

  /**
   * Path of the docs page, such as /docs: Swagger UI showing the OpenAPI documents (open-api-path must be
   * set), with the org.webjars:swagger-ui webjar as a dependency of the application. None when unset.
   */
  private String openApiDocsPath;

  /**
   * Port of the admin endpoint on 127.0.0.1 (GET /offline, /online and /state, as Dubbo's QoS port answers; 0
   * lets the system choose). None when unset.
   */
  private Integer adminPort;

  private final AdaptiveConcurrencyLimit adaptiveConcurrencyLimit = new AdaptiveConcurrencyLimit();

  private final Tls tls = new Tls();

  private final Http3 http3 = new Http3();

  private final Shutdown shutdown = new Shutdown();

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    this.host = host;
  }

  public int getPort() {
    return port;
  }

  public void setPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("triple.server.port must be between 0 and 65535: " + port);
    }
    this.port = port;
  }

  public boolean isExportServices() {
    return exportServices;
  }

  public void setExportServices(boolean exportServices) {
    this.exportServices = exportServices;
  }

  public Integer getMaxConcurrentStreams() {
    return maxConcurrentStreams;
  }

  public void setMaxConcurrentStreams(Integer streams) {
    this.maxConcurrentStreams = streams;
  }

  public DataSize getMaxTotalPendingOutboundBytes() {
    return maxTotalPendingOutboundBytes;
  }

  public void setMaxTotalPendingOutboundBytes(DataSize maxTotalPendingOutboundBytes) {
    this.maxTotalPendingOutboundBytes = maxTotalPendingOutboundBytes;
  }

  public Map<String, Integer> getMaxConcurrentCalls() {
    return maxConcurrentCalls;
  }

  public String getOpenApiPath() {
    return openApiPath;
  }

  public void setOpenApiPath(String openApiPath) {
    this.openApiPath = openApiPath;
  }

  public String getOpenApiDocsPath() {
    return openApiDocsPath;
  }

  public void setOpenApiDocsPath(String openApiDocsPath) {
    this.openApiDocsPath = openApiDocsPath;
  }

  public Duration getMaxConnectionIdle() {
    return maxConnectionIdle;
  }

  public void setMaxConnectionIdle(Duration idle) {
    this.maxConnectionIdle = idle;
  }

  public Duration getMaxConnectionAge() {
    return maxConnectionAge;
  }

  public void setMaxConnectionAge(Duration age) {
    this.maxConnectionAge = age;
  }

  public Integer getAdminPort() {
    return adminPort;
  }

  public void setAdminPort(Integer adminPort) {
    this.adminPort = adminPort;
  }

  public AdaptiveConcurrencyLimit getAdaptiveConcurrencyLimit() {
    return adaptiveConcurrencyLimit;
  }

  public Tls getTls() {
    return tls;
  }

  public Shutdown getShutdown() {
    return shutdown;
  }

  public Http3 getHttp3() {
    return http3;
  }

  static Duration positive(Duration duration, String property) {
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException(property + " must be positive: " + duration);
    }
    return duration;
  }

  /**
   * A limit on unary calls in flight that adapts to their latency ({@code io.triplerpc.AdaptiveConcurrencyLimit});
   * unset bounds keep {@code AdaptiveConcurrencyLimit.vegas()}'s.
   */
  public static class AdaptiveConcurrencyLimit {

    /** Whether the server limits its unary calls in flight to a number that adapts to their latency. */
    private boolean enabled;

    /** The limit to start from; Triple's 20 when unset. */
    private Integer initial;

    /** The lowest the limit goes; Triple's 1 when unset. */
    private Integer min;

    /** The highest the limit goes; Triple's 1000 when unset. */
    private Integer max;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Integer getInitial() {
      return initial;
    }

    public void setInitial(Integer initial) {
      this.initial = initial;
    }

    public Integer getMin() {
      return min;
    }

    public void setMin(Integer min) {
      this.min = min;
    }

    public Integer getMax() {
      return max;
    }

    public void setMax(Integer max) {
      this.max = max;
    }
  }

  /** TLS for the server's port: with a certificate chain and its key, the port serves TLS only. */
  public static class Tls extends TlsProperties {

    /** Whether clients must present a certificate: NONE, OPTIONAL or REQUIRE (mutual TLS). */
    private TlsConfig.ClientAuth clientAuth = TlsConfig.ClientAuth.NONE;

    /** Whether cleartext connections are served on the TLS port too (migrations, tests). */
    private boolean plaintextAlongside;

    public TlsConfig.ClientAuth getClientAuth() {
      return clientAuth;
    }

    public void setClientAuth(TlsConfig.ClientAuth clientAuth) {
      this.clientAuth = clientAuth;
    }

    public boolean isPlaintextAlongside() {
      return plaintextAlongside;
    }

    public void setPlaintextAlongside(boolean plaintextAlongside) {
      this.plaintextAlongside = plaintextAlongside;
    }
  }

  /**
   * HTTP/3 (QUIC) beside TCP: the same services on a UDP port, with the server's TLS (triple.server.tls.*, which
   * it needs) and io.triplerpc:triple-transport-http3 as a dependency of the application.
   */
  public static class Http3 {

    /** Whether HTTP/3 is served; responses over TCP then advertise it (alt-svc). */
    private boolean enabled;

    /** The UDP port; the TCP port's number when unset. */
    private Integer port;

    /** How long clients may keep the alt-svc advertisement (its ma); Triple's 24h when unset, 0s for none. */
    private Duration altSvcMaxAge;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Integer getPort() {
      return port;
    }

    public void setPort(Integer port) {
      this.port = port;
    }

    public Duration getAltSvcMaxAge() {
      return altSvcMaxAge;
    }

    public void setAltSvcMaxAge(Duration altSvcMaxAge) {
      this.altSvcMaxAge = altSvcMaxAge;
    }
  }

  /** How the server stops with the application context. */
  public static class Shutdown {

    /**
     * How long calls in flight may go on after GOAWAY before the server closes every connection. Keep it
     * below spring.lifecycle.timeout-per-shutdown-phase (30s by default).
     */
    private Duration gracePeriod = Duration.ofSeconds(20);

    public Duration getGracePeriod() {
      return gracePeriod;
    }

    public void setGracePeriod(Duration gracePeriod) {
      if (gracePeriod == null || gracePeriod.isNegative()) {
        throw new IllegalArgumentException("triple.server.shutdown.grace-period must not be negative: " + gracePeriod);
      }
      this.gracePeriod = gracePeriod;
    }
  }
}
