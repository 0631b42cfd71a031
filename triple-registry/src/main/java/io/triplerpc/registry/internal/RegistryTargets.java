package io.triplerpc.registry.internal;

import io.triplerpc.TlsConfig;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.StaticRegistry;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.TargetResolver;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Client targets of this module: {@code registry://host:port} (the standalone registry server,
 * through a {@link RemoteRegistry} of the client's own, closed with it) and
 * {@code static://host1:port1,host2:port2}.
 *
 * <p>Either may name its {@link LoadBalancing} in the query, in lower case as gRPC names its policies:
 * {@code static://h1:50051,h2:50051?lb=pick_first}, {@code registry://host:7070?lb=least_active}; the
 * balancing of {@link Discovery.Builder#loadBalancing} when absent.
 *
 * <p>A {@code registry://} target may say how to reach a secured registry, in its query:
 * {@code tls=true} (TLS, the JDK's trust store), {@code tls-ca=/path/ca.pem} (TLS trusting that CA),
 * {@code token-file=/path/token} (the file holding the client's token). A raw token is refused: a
 * target ends up in logs and process lists, a file name does not give the token away. These
 * settings reach the registry's connection only; the client's own {@code tls(...)} is for the
 * providers it finds.
 */
public final class RegistryTargets implements TargetResolver {

  @Override
  public boolean supports(String scheme) {
    return "static".equals(scheme) || "registry".equals(scheme);
  }

  @Override
  public ClusterFactory resolve(URI target) {
    String authority = target.getRawAuthority();
    if ("registry".equals(target.getScheme().toLowerCase(Locale.ROOT))) {
      // The query is left out of messages: whatever it holds stays out of logs.
      String shown = "registry://" + authority;
      if (target.getHost() == null || target.getPort() < 0) {
        throw new IllegalArgumentException("registry:// needs host:port, as in registry://127.0.0.1:7070: " + shown);
      }
      String host = target.getHost().startsWith("[") ? target.getHost().substring(1, target.getHost().length() - 1)
          : target.getHost();
      int port = target.getPort();
      Map<String, String> options = query(target.getRawQuery(), shown);
      // Files are read now, so a bad path fails the client's build rather than its first call.
      RemoteRegistry.Builder template = RemoteRegistry.builder(host, port);
      configure(template, options, shown);
      Discovery.Builder discovery =
          Discovery.connecting(() -> configure(RemoteRegistry.builder(host, port), options, shown).build());
      return balanced(discovery, options.get("lb"), shown).build();
    }
    if (authority == null || authority.isEmpty()) {
      throw new IllegalArgumentException("static:// needs addresses, as in static://host1:port1,host2:port2: " + target);
    }
    String query = target.getRawQuery();
    String lb = null;
    if (query != null && !query.isEmpty()) {
      if (!query.startsWith("lb=") || query.contains("&")) {
        throw new IllegalArgumentException("A static:// target's query is lb=<balancing> alone: " + target);
      }
      lb = query.substring(3);
    }
    return balanced(Discovery.using(StaticRegistry.of(authority.split(","))), lb, target.toString()).build();
  }

  /** {@code discovery} with the balancing {@code lb} names (lower case, as in {@code pick_first}), if any. */
  private static Discovery.Builder balanced(Discovery.Builder discovery, String lb, String shown) {
    if (lb == null) {
      return discovery;
    }
    for (LoadBalancing balancing : LoadBalancing.values()) {
      if (balancing.name().toLowerCase(Locale.ROOT).equals(lb)) {
        return discovery.loadBalancing(balancing);
      }
    }
    throw new IllegalArgumentException("lb=" + lb + " is no balancing (known: " + Arrays.stream(LoadBalancing.values())
        .map(b -> b.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")) + "): " + shown);
  }

  private static RemoteRegistry.Builder configure(RemoteRegistry.Builder builder, Map<String, String> options,
      String shown) {
    String ca = options.get("tls-ca");
    String tls = options.getOrDefault("tls", ca != null ? "true" : "false");
    if (!tls.equals("true") && !tls.equals("false")) {
      throw new IllegalArgumentException("tls= must be true or false in " + shown);
    }
    if (tls.equals("true")) {
      TlsConfig.Builder config = TlsConfig.builder();
      if (ca != null) {
        config.trustCertificates(Path.of(ca));
      }
      builder.tls(config.build());
    } else if (ca != null) {
      throw new IllegalArgumentException("tls-ca= with tls=false in " + shown);
    }
    String tokenFile = options.get("token-file");
    if (tokenFile != null) {
      builder.tokenFile(Path.of(tokenFile));
    }
    return builder;
  }

  /** The query's parameters, percent-decoded ({@code +} stays a plus: these are paths). */
  private static Map<String, String> query(String raw, String shown) {
    Map<String, String> options = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return options;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      switch (name) {
        case "tls", "tls-ca", "token-file", "lb" -> {
          if (options.put(name, value) != null) {
            throw new IllegalArgumentException(name + "= given twice in " + shown);
          }
        }
        case "token" -> throw new IllegalArgumentException("A registry:// target never carries a token (targets end up"
            + " in logs); put it in a file and give token-file=/path: " + shown);
        // A name is echoed only if it looks like one: a stray token must not reach a log.
        default -> throw new IllegalArgumentException("Unknown registry:// option"
            + (name.matches("[a-z-]{1,20}") ? " '" + name + "'" : "") + " (known: tls, tls-ca, token-file, lb): " + shown);
      }
    }
    return options;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
