package io.triplerpc.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The test-only certificates (PEM) in {@code io/triplerpc/testing/certs}, copied once to files, as
 * servers and clients read them: a CA, a server certificate for localhost and 127.0.0.1 and a client
 * certificate it signed, and a CA that signed neither.
 */
public final class TestCertificates {

  private static Path directory;

  private TestCertificates() {}

  public static Path caCertificate() {
    return file("ca.pem");
  }

  public static Path otherCaCertificate() {
    return file("other-ca.pem");
  }

  public static Path serverCertificate() {
    return file("server.pem");
  }

  public static Path serverKey() {
    return file("server.key");
  }

  public static Path clientCertificate() {
    return file("client.pem");
  }

  public static Path clientKey() {
    return file("client.key");
  }

  private static synchronized Path file(String name) {
    try {
      if (directory == null) {
        directory = Files.createTempDirectory("triple-test-certs");
        directory.toFile().deleteOnExit();
      }
      Path target = directory.resolve(name);
      if (!Files.exists(target)) {
        try (InputStream in = TestCertificates.class.getResourceAsStream("certs/" + name)) {
          if (in == null) {
            throw new IllegalStateException("missing test resource certs/" + name);
          }
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        target.toFile().deleteOnExit();
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
