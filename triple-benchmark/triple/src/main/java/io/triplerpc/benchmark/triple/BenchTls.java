package io.triplerpc.benchmark.triple;

import io.triplerpc.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * TLS for the benchmarks: a self-signed EC certificate for 127.0.0.1 that the JDK's own keytool makes,
 * written out as PEM (certificate, PKCS#8 key) in a temporary directory; the server presents it, the
 * client trusts it, each with the provider asked for (the JDK's, or OpenSSL from netty-tcnative). The
 * server JVM gets the directory in {@link #PROPERTY} and the provider in {@link #PROVIDER_PROPERTY}.
 */
final class BenchTls {

  /** The directory of the server's certificate and key. */
  static final String PROPERTY = "triple.bench.tls.dir";
  /** {@link TlsConfig.Provider}'s name; JDK when not set. */
  static final String PROVIDER_PROPERTY = "triple.bench.tls.provider";
  private static final String PASSWORD = "benchmark";
  private static final String CERTIFICATE = "server.pem";
  private static final String KEY = "server.key";

  private BenchTls() {}

  /** Makes the certificate and key with keytool; the caller deletes the directory ({@link #delete}). */
  static Path newCertificate() throws IOException, InterruptedException, GeneralSecurityException {
    Path directory = Files.createTempDirectory("triple-bench-tls");
    Path store = directory.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2",
        "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD))
        .redirectErrorStream(true)
        .start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool failed: " + new String(output, StandardCharsets.UTF_8));
    }
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keyStore.load(in, PASSWORD.toCharArray());
    }
    Key key = keyStore.getKey("server", PASSWORD.toCharArray());
    Files.writeString(directory.resolve(CERTIFICATE), pem("CERTIFICATE", keyStore.getCertificate("server").getEncoded()));
    // A PKCS#12 EC key encodes as PKCS#8, the form TlsConfig reads.
    Files.writeString(directory.resolve(KEY), pem("PRIVATE KEY", key.getEncoded()));
    Files.delete(store);
    return directory;
  }

  static void delete(Path directory) throws IOException {
    Files.deleteIfExists(directory.resolve(CERTIFICATE));
    Files.deleteIfExists(directory.resolve(KEY));
    Files.deleteIfExists(directory);
  }

  static TlsConfig server(Path directory, TlsConfig.Provider provider) {
    return TlsConfig.builder()
        .keyCertChain(directory.resolve(CERTIFICATE), directory.resolve(KEY))
        .provider(provider)
        .build();
  }

  static TlsConfig client(Path directory, TlsConfig.Provider provider) {
    return TlsConfig.builder().trustCertificates(directory.resolve(CERTIFICATE)).provider(provider).build();
  }

  /** The provider this JVM was given in {@link #PROVIDER_PROPERTY}. */
  static TlsConfig.Provider provider() {
    return TlsConfig.Provider.valueOf(System.getProperty(PROVIDER_PROPERTY, TlsConfig.Provider.JDK.name()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
