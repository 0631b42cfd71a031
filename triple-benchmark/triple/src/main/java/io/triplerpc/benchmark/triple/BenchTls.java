package io.triplerpc.benchmark.triple;

import io.triplerpc.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the benchmarks with the JDK's provider: a self-signed EC certificate for 127.0.0.1 that the
 * JDK's own keytool makes in a temporary PKCS#12 store, which the server uses as its key and the client
 * trusts. The server JVM gets the store's path in {@link #PROPERTY}.
 */
final class BenchTls {

  /** The PKCS#12 store of the server's key and certificate. */
  static final String PROPERTY = "triple.bench.tls.keystore";
  private static final char[] PASSWORD = "benchmark".toCharArray();

  private BenchTls() {}

  /** Makes a store with keytool; the caller deletes it when done. */
  static Path newKeyStore() throws IOException, InterruptedException {
    Path directory = Files.createTempDirectory("triple-bench-tls");
    Path store = directory.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2",
        "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", new String(PASSWORD)))
        .redirectErrorStream(true)
        .start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool failed: " + new String(output));
    }
    return store;
  }

  static TlsConfig server(Path store) throws IOException, GeneralSecurityException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(load(store), PASSWORD);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return TlsConfig.builder().sslContext(context).build();
  }

  static TlsConfig client(Path store) throws IOException, GeneralSecurityException {
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(load(store));
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return TlsConfig.builder().sslContext(context).build();
  }

  private static KeyStore load(Path store) throws IOException, GeneralSecurityException {
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keyStore.load(in, PASSWORD);
    }
    return keyStore;
  }
}
