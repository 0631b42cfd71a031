package io.triplerpc.interop.dubbo.peer;

import java.util.ArrayList;
import java.util.List;

/**
 * The peer's command line: {@code provider|consumer --name=value...}.
 *
 * <ul>
 *   <li>{@code --port=N}: provider, the port to serve on (0 or absent: a free one, reported on READY);
 *   <li>{@code --address=host:port}: consumer, the Triple server to call (a direct {@code tri://} URL);
 *   <li>{@code --timeout=ms}: consumer, the references' timeout (default 5000; retries are always 0);
 *   <li>{@code --version=v}, {@code --group=g}: on the exports (provider) or references (consumer);
 *   <li>{@code --serialization=hessian2|fastjson2}: provider, the protocol's; consumer, the
 *       references' (a URL parameter);
 *   <li>{@code --prefer-serialization=a,b}: provider, what it advertises to consumers that negotiate;
 *   <li>{@code --also-export=version:group:label,...}: provider, more exports of {@code PlainService}
 *       whose {@code whoami()} answers {@code label} (empty version or group for none); the main export's
 *       label is {@code default};
 *   <li>{@code --registry=host:port}: application-level service discovery on that ZooKeeper
 *       ({@code zookeeper://host:port?registry-type=service}) instead of a direct URL: a provider
 *       registers (binding 127.0.0.1), a consumer finds its providers there (no {@code --address});
 *   <li>{@code --host=ip}: provider with a registry, the address it registers (default 127.0.0.1);
 *   <li>{@code --application=name}: the application's name (default {@code triple-dubbo-interop-<mode>});
 *   <li>{@code --metadata-type=local|remote}: provider, where its metadata goes (Dubbo's default: local,
 *       served by its MetadataService);
 *   <li>{@code --provided-by=app}: consumer with a registry, the application to call (Dubbo's
 *       {@code providedBy}) instead of the ones the service's mapping names;
 *   <li>{@code --tracing}: Dubbo's own tracing on (OpenTelemetry through Micrometer Tracing, W3C
 *       propagation with baggage, every trace sampled, spans kept in the process);
 *   <li>{@code --relay=host:port}: provider, the Triple server its {@code traceHop()} calls on (a direct
 *       {@code tri://} reference) before it answers;
 *   <li>{@code --rest}: provider, also exports the REST services of the api module's {@code rest} packages
 *       (two copied from Dubbo's samples, two in their style for what those lack), which Dubbo's Triple
 *       REST serves on the same port over HTTP/1.1 and HTTP/2;
 *   <li>{@code --overloads}: provider, also exports {@code OverloadService} (as {@code --rest} does); consumer,
 *       also refers to it, and a command may name the overload it calls by its parameter types;
 *   <li>{@code --loadbalance=name}: consumer, the references' load balancer ({@code consistenthash}, say,
 *       which hashes the first argument);
 *   <li>{@code --http3}: provider, also serves Triple over HTTP/3 (QUIC) on the UDP port of its TCP port's
 *       number (Dubbo's {@code dubbo.protocol.triple.http3.enabled}), with the certificate of {@code --cert}
 *       and {@code --key}; consumer, calls over HTTP/3 only ({@code http3=true} on the references,
 *       negotiation off), trusting any certificate as Dubbo's client does when it is given none;
 *   <li>{@code --cert=pem}, {@code --key=pem}: provider, the certificate chain and PKCS#8 key of its TLS.
 * </ul>
 */
record PeerOptions(
    String mode,
    int port,
    String address,
    int timeoutMillis,
    String version,
    String group,
    String serialization,
    String preferSerialization,
    List<String[]> alsoExport,
    String registry,
    String application,
    String metadataType,
    String providedBy,
    boolean tracing,
    String relay,
    boolean rest,
    boolean overloads,
    String loadbalance,
    String host,
    boolean http3,
    String cert,
    String key) {

  static PeerOptions parse(String[] args) {
    if (args.length == 0 || !(args[0].equals("provider") || args[0].equals("consumer"))) {
      throw new IllegalArgumentException("usage: provider|consumer [--name=value...], got " + List.of(args));
    }
    int port = 0;
    String address = null;
    int timeout = 5000;
    String version = null;
    String group = null;
    String serialization = null;
    String prefer = null;
    String registry = null;
    String application = null;
    String metadataType = null;
    String providedBy = null;
    boolean tracing = false;
    String relay = null;
    boolean rest = false;
    boolean overloads = false;
    String loadbalance = null;
    String host = null;
    boolean http3 = false;
    String cert = null;
    String key = null;
    List<String[]> also = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      String value = eq < 0 ? "" : arg.substring(eq + 1);
      switch (name) {
        case "--port" -> port = Integer.parseInt(value);
        case "--address" -> address = value;
        case "--timeout" -> timeout = Integer.parseInt(value);
        case "--version" -> version = value;
        case "--group" -> group = value;
        case "--serialization" -> serialization = value;
        case "--prefer-serialization" -> prefer = value;
        case "--registry" -> registry = value;
        case "--application" -> application = value;
        case "--metadata-type" -> metadataType = value;
        case "--provided-by" -> providedBy = value;
        case "--tracing" -> tracing = true;
        case "--relay" -> relay = value;
        case "--rest" -> rest = true;
        case "--overloads" -> overloads = true;
        case "--loadbalance" -> loadbalance = value;
        case "--host" -> host = value;
        case "--http3" -> http3 = true;
        case "--cert" -> cert = value;
        case "--key" -> key = value;
        case "--also-export" -> {
          for (String export : value.split(",")) {
            String[] parts = export.split(":", -1);
            if (parts.length != 3) {
              throw new IllegalArgumentException("--also-export takes version:group:label, got " + export);
            }
            also.add(parts);
          }
        }
        default -> unknown.add(arg);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown options " + unknown);
    }
    if (args[0].equals("consumer") && (address == null) == (registry == null)) {
      throw new IllegalArgumentException("a consumer needs --address=host:port or --registry=host:port");
    }
    if (args[0].equals("provider") && http3 && (cert == null || key == null)) {
      throw new IllegalArgumentException("a provider with --http3 needs --cert=pem and --key=pem (QUIC is TLS only)");
    }
    return new PeerOptions(args[0], port, address, timeout, version, group, serialization, prefer, also, registry,
        application, metadataType, providedBy, tracing, relay, rest, overloads, loadbalance, host, http3, cert, key);
  }
}
