package io.triplerpc.registry.server;

import io.triplerpc.TlsConfig;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Runs a {@link RegistryServer} until the process is stopped:
 *
 * <pre>
 * RegistryServerMain [--host 127.0.0.1] [--port 7070] [--lease-ttl 10s] [--max-lease-ttl 5m] [--startup-grace 0s]
 *                    [--token-file FILE] [--tls-cert CERT.pem --tls-key KEY.pem [--tls-client-ca CA.pem]]
 * </pre>
 *
 * <p>Durations are a number with {@code ms}, {@code s} or {@code m}, or an ISO-8601 duration
 * ({@code PT10S}). {@code --token-file} holds one {@code <token> <right>[,<right>]} per line (rights
 * {@code register}, {@code subscribe}; {@code #} comments), see {@link RegistryServer.Builder#tokenFile};
 * without it the registry serves every caller and warns so. {@code --tls-cert} and {@code --tls-key}
 * (PEM, the key in PKCS#8) serve TLS; {@code --tls-client-ca} also requires client certificates
 * signed by that CA (mutual TLS). Once listening it prints {@code registry listening on HOST:PORT}.
 * Bad flags, and a bad token file (named with its line number), exit with status 2.
 */
public final class RegistryServerMain {

  private RegistryServerMain() {}

  /** What the command line asked for. */
  record Options(RegistryServer.Builder builder, String host, Duration leaseTtl) {}

  public static void main(String[] args) throws InterruptedException {
    Options options;
    RegistryServer registry;
    try {
      options = parse(args);
      if (options == null) {
        usage(null);
        return;
      }
      registry = options.builder().build();
    } catch (IllegalArgumentException | UncheckedIOException e) {
      usage(e.getMessage());
      System.exit(2);
      return;
    }
    registry.start();
    Runtime.getRuntime().addShutdownHook(new Thread(registry::shutdown, "triple-registry-shutdown"));
    System.out.println("registry listening on " + hostForDisplay(options.host()) + ':' + registry.port()
        + " (lease ttl " + options.leaseTtl().toMillis() + " ms)");
    System.out.flush();
    registry.awaitTermination();
  }

  /**
   * The registry {@code args} describe, or null when they ask for help.
   *
   * @throws IllegalArgumentException for a bad flag or value, or a bad token file line
   * @throws UncheckedIOException if a file cannot be read
   */
  static Options parse(String[] args) {
    RegistryServer.Builder builder = RegistryServer.builder().host("127.0.0.1");
    String host = "127.0.0.1";
    Duration leaseTtl = RegistryServer.DEFAULT_LEASE_TTL;
    Path tlsCert = null;
    Path tlsKey = null;
    Path tlsClientCa = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String value;
      int eq = arg.indexOf('=');
      if (eq > 0) {
        value = arg.substring(eq + 1);
        arg = arg.substring(0, eq);
      } else if (arg.equals("--help") || arg.equals("-h")) {
        return null;
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      switch (arg) {
        case "--host":
          host = value;
          builder.host(value);
          break;
        case "--port":
          builder.port(Integer.parseInt(value));
          break;
        case "--lease-ttl":
          leaseTtl = duration(value);
          builder.leaseTtl(leaseTtl);
          break;
        case "--max-lease-ttl":
          builder.maxLeaseTtl(duration(value));
          break;
        case "--startup-grace":
          builder.startupGrace(duration(value));
          break;
        case "--token-file":
          builder.tokenFile(Path.of(value));
          break;
        case "--tls-cert":
          tlsCert = Path.of(value);
          break;
        case "--tls-key":
          tlsKey = Path.of(value);
          break;
        case "--tls-client-ca":
          tlsClientCa = Path.of(value);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsClientCa != null && tlsCert == null) {
      throw new IllegalArgumentException("--tls-client-ca needs --tls-cert and --tls-key");
    }
    if (tlsCert != null) {
      TlsConfig.Builder tls = TlsConfig.builder().keyCertChain(tlsCert, tlsKey);
      if (tlsClientCa != null) {
        tls.trustCertificates(tlsClientCa).clientAuth(TlsConfig.ClientAuth.REQUIRE);
      }
      builder.tls(tls.build());
    }
    return new Options(builder, host, leaseTtl);
  }

  private static String hostForDisplay(String host) {
    return host.indexOf(':') >= 0 ? '[' + host + ']' : host;
  }

  /** {@code 300ms}, {@code 10s}, {@code 5m}, or ISO-8601 such as {@code PT10S}. */
  static Duration duration(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("pt") || t.startsWith("p")) {
        return Duration.parse(text.trim());
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("s")) {
        return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
      }
      if (t.endsWith("m")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)) * 60);
      }
      return Duration.ofSeconds(Long.parseLong(t));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a duration: " + text + " (use 300ms, 10s, 5m or PT10S)");
    }
  }

  private static void usage(String error) {
    if (error != null) {
      System.err.println("registry-server: " + error);
    }
    System.err.println("usage: registry-server [--host 127.0.0.1] [--port 7070] [--lease-ttl 10s]"
        + " [--max-lease-ttl 5m] [--startup-grace 0s]\n"
        + "                       [--token-file FILE] [--tls-cert CERT.pem --tls-key KEY.pem [--tls-client-ca CA.pem]]\n"
        + "  --token-file     one '<token> <right>[,<right>]' per line, rights register and subscribe, # comments;\n"
        + "                   without it every caller may register and subscribe (a warning says so)\n"
        + "  --tls-cert/-key  serve TLS with this certificate chain and PKCS#8 key (PEM)\n"
        + "  --tls-client-ca  also require client certificates signed by this CA (mutual TLS)");
  }
}
