package io.triplerpc.benchmark.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed EC certificate for the benchmarks' TLS, made by the JDK's own keytool and written out as PEM
 * (certificate, PKCS#8 key) in a temporary directory, which every contender's TLS reads: the server presents
 * it, the client trusts it. Plain JDK, as this harness is in every contender's jar.
 */
public final class BenchCertificates {

  /** The certificate's file in the directory. */
  public static final String CERTIFICATE = "server.pem";
  /** The key's file in the directory. */
  public static final String KEY = "server.key";
  private static final String PASSWORD = "benchmark";

  private BenchCertificates() {}

  /**
   * Makes the certificate and key for the addresses {@code ips} (its subject alternative names; the first is its
   * CN); the caller deletes the directory ({@link #delete}).
   */
  public static Path make(String... ips) throws IOException, InterruptedException, GeneralSecurityException {
    Path directory = Files.createTempDirectory("triple-bench-tls");
    Path store = directory.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    String names = String.join(",", Arrays.stream(ips).map(ip -> "ip:" + ip).toList());
    Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-groupname", "secp256r1", "-dname", "CN=" + ips[0], "-ext", "san=" + names, "-validity", "2",
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
    // A PKCS#12 EC key encodes as PKCS#8, the form the contenders' TLS reads.
    Files.writeString(directory.resolve(KEY), pem("PRIVATE KEY", key.getEncoded()));
    Files.delete(store);
    return directory;
  }

  /** Deletes what {@link #make} made. */
  public static void delete(Path directory) throws IOException {
    Files.deleteIfExists(directory.resolve(CERTIFICATE));
    Files.deleteIfExists(directory.resolve(KEY));
    Files.deleteIfExists(directory);
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
