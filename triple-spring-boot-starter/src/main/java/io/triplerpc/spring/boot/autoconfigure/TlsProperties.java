package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TlsConfig;
import java.nio.file.Path;

/** The PEM files of a TLS configuration, as a server's and a client's properties name them alike. */
public abstract class TlsProperties {

  /** PEM certificate chain presented to the peer (a server's certificate; a client's for mutual TLS). */
  private Path certificateChain;

  /** PEM (PKCS#8) private key of the certificate chain. */
  private Path privateKey;

  /** PEM certificates trusted to sign the peer's certificate; a client trusts the JDK's trust store when unset. */
  private Path trustCertificates;

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

  /** Whether any of the files is set. */
  boolean anyFile() {
    return certificateChain != null || privateKey != null || trustCertificates != null;
  }

  /**
   * A TLS configuration of the files set.
   *
   * @param prefix the properties' prefix, such as {@code triple.client.tls}, for messages
   * @throws IllegalStateException if only one of the certificate chain and its key is set
   */
  TlsConfig.Builder toConfig(String prefix) {
    if ((certificateChain == null) != (privateKey == null)) {
      throw new IllegalStateException(prefix + ".certificate-chain and " + prefix + ".private-key go together");
    }
    TlsConfig.Builder config = TlsConfig.builder();
    if (certificateChain != null) {
      config.keyCertChain(certificateChain, privateKey);
    }
    if (trustCertificates != null) {
      config.trustCertificates(trustCertificates);
    }
    return config;
  }

  /** TLS of a client to its servers ({@code triple.client.tls}, {@code triple.registry.tls}). */
  public static class Client extends TlsProperties {

    /** Whether to connect with TLS. */
    private boolean enabled;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /**
     * The configuration when {@link #isEnabled() enabled}, else null.
     *
     * @throws IllegalStateException if files are set without {@code enabled}, or a key without its chain
     */
    TlsConfig toClientConfig(String prefix) {
      if (!enabled) {
        if (anyFile()) {
          throw new IllegalStateException(prefix + ".* files are set but " + prefix + ".enabled is not true");
        }
        return null;
      }
      return toConfig(prefix).build();
    }
  }
}
