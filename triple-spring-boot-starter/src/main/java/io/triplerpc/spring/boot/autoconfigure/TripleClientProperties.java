package io.triplerpc.spring.boot.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The clients made for {@code @TripleReference}s: {@code triple.client.*}, applied to every one of them, with
 * the settings clients share with a server in {@link TransportProperties}. Unset properties keep the
 * defaults of {@code TripleClient.Builder}.
 */
@ConfigurationProperties("triple.client")
public class TripleClientProperties extends TransportProperties {

  /** Deadline of each call made through a @TripleReference; none when unset. */
  private Duration deadline;

  /** TLS to the servers (a TripleClientCustomizer can set it for some targets only). */
  private final TlsProperties.Client tls = new TlsProperties.Client();

  public Duration getDeadline() {
    return deadline;
  }

  public void setDeadline(Duration deadline) {
    this.deadline = TripleServerProperties.positive(deadline, "triple.client.deadline");
  }

  public TlsProperties.Client getTls() {
    return tls;
  }
}
