package io.triplerpc.benchmark.triple;

import io.triplerpc.TlsConfig;
import io.triplerpc.benchmark.harness.BenchCertificates;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;

/**
 * TLS for the Triple benchmarks, with the harness's certificate ({@link BenchCertificates}): the server presents
 * it, the client trusts it, each with the provider asked for (the JDK's, or OpenSSL from netty-tcnative). The
 * server JVM gets the directory in {@link #PROPERTY} and the provider in {@link #PROVIDER_PROPERTY}.
 */
final class BenchTls {

  /** The directory of the server's certificate and key. */
  static final String PROPERTY = "triple.bench.tls.dir";
  /** {@link TlsConfig.Provider}'s name; JDK when not set. */
  static final String PROVIDER_PROPERTY = "triple.bench.tls.provider";

  private BenchTls() {}

  /** A certificate for 127.0.0.1; the caller deletes the directory ({@link #delete}). */
  static Path newCertificate() throws IOException, InterruptedException, GeneralSecurityException {
    return BenchCertificates.make("127.0.0.1");
  }

  static void delete(Path directory) throws IOException {
    BenchCertificates.delete(directory);
  }

  static TlsConfig server(Path directory, TlsConfig.Provider provider) {
    return TlsConfig.builder()
        .keyCertChain(directory.resolve(BenchCertificates.CERTIFICATE), directory.resolve(BenchCertificates.KEY))
        .provider(provider)
        .build();
  }

  static TlsConfig client(Path directory, TlsConfig.Provider provider) {
    return TlsConfig.builder().trustCertificates(directory.resolve(BenchCertificates.CERTIFICATE)).provider(provider)
        .build();
  }

  /** The provider this JVM was given in {@link #PROVIDER_PROPERTY}. */
  static TlsConfig.Provider provider() {
    return TlsConfig.Provider.valueOf(System.getProperty(PROVIDER_PROPERTY, TlsConfig.Provider.JDK.name()));
  }
}
