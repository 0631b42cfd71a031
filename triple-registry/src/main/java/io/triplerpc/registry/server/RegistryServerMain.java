package io.triplerpc.registry.server;

import java.time.Duration;
import java.util.Locale;

/**
 * Runs a {@link RegistryServer} until the process is stopped:
 *
 * <pre>
 * RegistryServerMain [--host 127.0.0.1] [--port 7070] [--lease-ttl 10s] [--max-lease-ttl 5m] [--startup-grace 0s]
 * </pre>
 *
 * <p>Durations are a number with {@code ms}, {@code s} or {@code m}, or an ISO-8601 duration
 * ({@code PT10S}). Once listening it prints {@code registry listening on HOST:PORT}.
 */
public final class RegistryServerMain {

  private RegistryServerMain() {}

  public static void main(String[] args) throws InterruptedException {
    RegistryServer.Builder builder = RegistryServer.builder().host("127.0.0.1");
    String host = "127.0.0.1";
    Duration leaseTtl = RegistryServer.DEFAULT_LEASE_TTL;
    try {
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        String value;
        int eq = arg.indexOf('=');
        if (eq > 0) {
          value = arg.substring(eq + 1);
          arg = arg.substring(0, eq);
        } else if (arg.equals("--help") || arg.equals("-h")) {
          usage(null);
          return;
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
          default:
            throw new IllegalArgumentException("unknown option " + arg);
        }
      }
    } catch (IllegalArgumentException e) {
      usage(e.getMessage());
      System.exit(2);
      return;
    }
    RegistryServer registry = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(registry::shutdown, "triple-registry-shutdown"));
    System.out.println("registry listening on " + hostForDisplay(host) + ':' + registry.port()
        + " (lease ttl " + leaseTtl.toMillis() + " ms)");
    System.out.flush();
    registry.awaitTermination();
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
        + " [--max-lease-ttl 5m] [--startup-grace 0s]");
  }
}
