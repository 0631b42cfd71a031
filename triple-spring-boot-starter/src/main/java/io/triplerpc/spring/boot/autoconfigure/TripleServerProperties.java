package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The application's Triple server: {@code triple.server.*}. Setters refuse values the server would, so a
 * bad value stops the application at start-up with the property's name. Unset durations keep Triple's
 * defaults (see {@code TripleServer.Builder}).
 */
@ConfigurationProperties("triple.server")
public class TripleServerProperties {

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

  /** Largest request message accepted; larger ones fail with RESOURCE_EXHAUSTED. */
  private DataSize maxInboundMessageSize = DataSize.ofMegabytes(4);

  /** Largest request header block accepted. */
  private DataSize maxHeaderListSize = DataSize.ofKilobytes(8);

  /** Streams a client may have open on one connection. */
  private int maxConcurrentStreams = 1000;

  /** Event loop threads; 0 for one per core. */
  private int ioThreads;

  /**
   * Calls of each method that may run at once, by service ("pkg.Service") or method
   * ("pkg.Service/Method"); past it a call fails at once with RESOURCE_EXHAUSTED. Names with dots go in
   * brackets: triple.server.max-concurrent-calls[pkg.Greeter]=50.
   */
  private final Map<String, Integer> maxConcurrentCalls = new LinkedHashMap<>();

  /** Time without reads after which a keepalive PING goes out. */
  private Duration keepAliveTime;

  /** How long a keepalive PING may go unanswered before the connection closes. */
  private Duration keepAliveTimeout;

  /** Closes connections that have had no call for this long. */
  private Duration maxConnectionIdle;

  /** Closes connections gracefully once they have lived this long (give or take 10%). */
  private Duration maxConnectionAge;

  /** Classes (or package prefixes ending with a dot) that plain Java requests may hold beyond their signatures. */
  private final List<String> allowDeserialization = new ArrayList<>();

  private final AdaptiveConcurrencyLimit adaptiveConcurrencyLimit = new AdaptiveConcurrencyLimit();

  private final Tls tls = new Tls();

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

  public DataSize getMaxInboundMessageSize() {
    return maxInboundMessageSize;
  }

  public void setMaxInboundMessageSize(DataSize size) {
    this.maxInboundMessageSize = positiveInt(size, "triple.server.max-inbound-message-size");
  }

  public DataSize getMaxHeaderListSize() {
    return maxHeaderListSize;
  }

  public void setMaxHeaderListSize(DataSize size) {
    this.maxHeaderListSize = positiveInt(size, "triple.server.max-header-list-size");
  }

  public int getMaxConcurrentStreams() {
    return maxConcurrentStreams;
  }

  public void setMaxConcurrentStreams(int streams) {
    if (streams < 1) {
      throw new IllegalArgumentException("triple.server.max-concurrent-streams must be at least 1: " + streams);
    }
    this.maxConcurrentStreams = streams;
  }

  public int getIoThreads() {
    return ioThreads;
  }

  public void setIoThreads(int ioThreads) {
    if (ioThreads < 0) {
      throw new IllegalArgumentException("triple.server.io-threads must not be negative: " + ioThreads);
    }
    this.ioThreads = ioThreads;
  }

  public Map<String, Integer> getMaxConcurrentCalls() {
    return maxConcurrentCalls;
  }

  public Duration getKeepAliveTime() {
    return keepAliveTime;
  }

  public void setKeepAliveTime(Duration time) {
    this.keepAliveTime = positive(time, "triple.server.keep-alive-time");
  }

  public Duration getKeepAliveTimeout() {
    return keepAliveTimeout;
  }

  public void setKeepAliveTimeout(Duration timeout) {
    this.keepAliveTimeout = positive(timeout, "triple.server.keep-alive-timeout");
  }

  public Duration getMaxConnectionIdle() {
    return maxConnectionIdle;
  }

  public void setMaxConnectionIdle(Duration idle) {
    this.maxConnectionIdle = positive(idle, "triple.server.max-connection-idle");
  }

  public Duration getMaxConnectionAge() {
    return maxConnectionAge;
  }

  public void setMaxConnectionAge(Duration age) {
    this.maxConnectionAge = positive(age, "triple.server.max-connection-age");
  }

  public List<String> getAllowDeserialization() {
    return allowDeserialization;
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

  static DataSize positiveInt(DataSize size, String property) {
    if (size == null || size.toBytes() < 1 || size.toBytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(property + " must be between 1B and 2GB: " + size);
    }
    return size;
  }

  static Duration positive(Duration duration, String property) {
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException(property + " must be positive: " + duration);
    }
    return duration;
  }

  /** A limit on unary calls in flight that adapts to their latency ({@code io.triplerpc.AdaptiveConcurrencyLimit}). */
  public static class AdaptiveConcurrencyLimit {

    /** Whether the server limits its unary calls in flight to a number that adapts to their latency. */
    private boolean enabled;

    /** The limit to start from. */
    private int initial = 20;

    /** The lowest the limit goes. */
    private int min = 1;

    /** The highest the limit goes. */
    private int max = 1000;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public int getInitial() {
      return initial;
    }

    public void setInitial(int initial) {
      this.initial = initial;
    }

    public int getMin() {
      return min;
    }

    public void setMin(int min) {
      this.min = min;
    }

    public int getMax() {
      return max;
    }

    public void setMax(int max) {
      this.max = max;
    }
  }

  /** TLS for the server's port. */
  public static class Tls {

    /** PEM certificate chain the server presents; with private-key, the port serves TLS only. */
    private Path certificateChain;

    /** PEM (PKCS#8) private key of the certificate chain. */
    private Path privateKey;

    /** PEM certificates trusted to sign client certificates. */
    private Path trustCertificates;

    /** Whether clients must present a certificate: NONE, OPTIONAL or REQUIRE (mutual TLS). */
    private TlsConfig.ClientAuth clientAuth = TlsConfig.ClientAuth.NONE;

    /** Whether cleartext connections are served on the TLS port too (migrations, tests). */
    private boolean plaintextAlongside;

    public Path getCertificateChain() {
      return certificateChain;
    }

    public void setCertificateChain(Path certificateChain) {
      this.certificateChain = certificateChain;
    }

    public Path getPrivateKey() {
      return privateKey;
    }

    public void setPrivateKey(Path privateKey) {
      this.privateKey = privateKey;
    }

    public Path getTrustCertificates() {
      return trustCertificates;
    }

    public void setTrustCertificates(Path trustCertificates) {
      this.trustCertificates = trustCertificates;
    }

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
