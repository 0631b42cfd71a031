package io.triplerpc.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The registry (triple-registry) the server registers in and {@code @TripleReference}s without an address
 * discover through: {@code triple.registry.*}. A {@code Registry} bean of the application's own (ZooKeeper,
 * say) is used instead of {@link #getAddress() address}.
 */
@ConfigurationProperties("triple.registry")
public class TripleRegistryProperties {

  /** The registry server, as registry://host:port or host:port; none when unset. */
  private String address;

  /** Whether the server registers in the registry (consumers only discover). */
  private boolean register = true;

  /** The application the server registers as; spring.application.name when unset. */
  private String application;

  /** The host consumers connect to; the bound address, or the first non-loopback IPv4 address. */
  private String advertisedHost;

  /** The instance's weight for weighted balancing; the registration's default (100) when unset. */
  private Integer weight;

  /** Whether the server fails to start when the registry does not confirm its registration. */
  private boolean required;

  /** How long start-up waits for the registry, and a shutdown for the withdrawal; the registration's default (10s) when unset. */
  private Duration timeout;

  /** A file holding the token the registry server asks for (its register and subscribe rights). */
  private Path tokenFile;

  /** TLS to the registry server. */
  private final TlsProperties.Client tls = new TlsProperties.Client();

  public String getAddress() {
    return address;
  }

  public void setAddress(String address) {
    this.address = address;
  }

  public boolean isRegister() {
    return register;
  }

  public void setRegister(boolean register) {
    this.register = register;
  }

  public String getApplication() {
    return application;
  }

  public void setApplication(String application) {
    this.application = application;
  }

  public String getAdvertisedHost() {
    return advertisedHost;
  }

  public void setAdvertisedHost(String advertisedHost) {
    this.advertisedHost = advertisedHost;
  }

  public Integer getWeight() {
    return weight;
  }

  public void setWeight(Integer weight) {
    this.weight = weight;
  }

  public boolean isRequired() {
    return required;
  }

  public void setRequired(boolean required) {
    this.required = required;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  public Path getTokenFile() {
    return tokenFile;
  }

  public void setTokenFile(Path tokenFile) {
    this.tokenFile = tokenFile;
  }

  public TlsProperties.Client getTls() {
    return tls;
  }
}
