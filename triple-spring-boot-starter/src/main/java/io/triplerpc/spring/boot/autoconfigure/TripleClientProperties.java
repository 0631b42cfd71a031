package io.triplerpc.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** The clients made for {@code @TripleReference}s: {@code triple.client.*}, applied to every one of them. */
@ConfigurationProperties("triple.client")
public class TripleClientProperties {

  /** Deadline of each call made through a @TripleReference; none when unset. */
  private Duration deadline;

  /** Largest response message accepted. */
  private DataSize maxInboundMessageSize = DataSize.ofMegabytes(4);

  private final Tls tls = new Tls();

  public Duration getDeadline() {
    return deadline;
  }

  public void setDeadline(Duration deadline) {
    this.deadline = TripleServerProperties.positive(deadline, "triple.client.deadline");
  }

  public DataSize getMaxInboundMessageSize() {
    return maxInboundMessageSize;
  }

  public void setMaxInboundMessageSize(DataSize size) {
    this.maxInboundMessageSize = TripleServerProperties.positiveInt(size, "triple.client.max-inbound-message-size");
  }

  public Tls getTls() {
    return tls;
  }

  /** TLS to the servers (a TripleClientCustomizer can set it for some targets only). */
  public static class Tls {

    /** Whether the clients connect with TLS. */
    private boolean enabled;

    /** PEM certificates trusted to sign the servers' certificates; the JDK's trust store when unset. */
    private Path trustCertificates;

    /** PEM certificate chain presented to servers that ask for one (mutual TLS). */
    private Path certificateChain;

    /** PEM (PKCS#8) private key of the certificate chain. */
    private Path privateKey;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Path getTrustCertificates() {
      return trustCertificates;
    }

    public void setTrustCertificates(Path trustCertificates) {
      this.trustCertificates = trustCertificates;
    }

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
  }
}
