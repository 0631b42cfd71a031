package io.triplerpc.interop.dubbo.peer;

import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.ProtoService;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.FormResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.FormResources;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.HttpMethodRequestService;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.HttpMethodRequests;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.ItemResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.ItemResources;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.MediaResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.MediaResources;
import io.triplerpc.interop.dubbo.api.rest.springmvc.ConditionService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.ConditionServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.DemoService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.DemoServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.OverloadServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.SignupService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.SignupServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.TagService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.TagServices;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.common.config.configcenter.DynamicConfiguration;
import org.apache.dubbo.common.config.configcenter.DynamicConfigurationFactory;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.SslConfig;
import org.apache.dubbo.config.TracingConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.config.nested.SamplingConfig;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.service.GenericService;

/**
 * A plain Apache Dubbo 3.3.6 application for Triple's interop tests, run in a JVM of its own with
 * Dubbo's class path (see {@link PeerOptions} for the command line).
 *
 * <p>Standard output is the protocol and nothing else (whatever Dubbo prints goes to standard error):
 *
 * <ul>
 *   <li>{@code provider}: exports {@link PlainService} and {@link ProtoService} over {@code tri://}
 *       (no registry unless {@code --registry}, QoS off) and prints {@code READY <port>} once the port
 *       accepts connections (and, with a registry, the instance is registered); with {@code --rest}, also
 *       the REST services copied from Dubbo's samples, which Dubbo's Triple REST serves on that port (and,
 *       with it or {@code --overloads}, {@code OverloadService}).
 *   <li>{@code consumer}: refers to both at {@code tri://<address>} (direct URL, retries 0), or through
 *       the registry, prints {@code READY}, then reads one JSON command per line from standard input and
 *       answers each with one JSON line, in order ({@link ConsumerCommands} describes both).
 * </ul>
 *
 * <p>Either exits when its standard input ends, so a test JVM that dies takes its peer with it. Start it
 * with {@code -Ddubbo.network.interface.ignored=.*}, or a consumer dials this machine's address
 * instead of 127.0.0.1.
 */
public final class DubboPeer {

  /**
   * Dubbo logs through java.util.logging here (no other logger on its class path): warnings and up.
   * NetUtils warns with a stack trace each time it looks for the host's address and finds every
   * interface ignored, as asked; that is expected, so only its errors are kept. Held here because
   * java.util.logging keeps its loggers weakly.
   */
  private static final Logger ROOT_LOGGER = Logger.getLogger("");

  private static final Logger NET_UTILS_LOGGER = Logger.getLogger("org.apache.dubbo.common.utils.NetUtils");

  private static final String SHUTDOWN_WAIT = "dubbo.service.shutdown.wait";

  private static final String LOGGER = "dubbo.application.logger";

  private static final String HTTP3_ENABLED = "dubbo.protocol.triple.http3.enabled";

  /** On (Dubbo's default), a consumer starts on HTTP/2 and moves to HTTP/3 when told; off, HTTP/3 only. */
  private static final String HTTP3_NEGOTIATION = "dubbo.protocol.triple.http3.negotiation";

  private DubboPeer() {}

  public static void main(String[] args) throws Exception {
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    ROOT_LOGGER.setLevel(Level.WARNING);
    NET_UTILS_LOGGER.setLevel(Level.SEVERE);
    PeerOptions options = PeerOptions.parse(args);
    // Dubbo's graceful shutdown waits up to 10 s for calls in flight; a test peer stops in 0.3 s.
    if (System.getProperty(SHUTDOWN_WAIT) == null) {
      System.setProperty(SHUTDOWN_WAIT, "300");
    }
    // ZooKeeper's client brings slf4j (with no binding): Dubbo keeps logging to java.util.logging.
    if (System.getProperty(LOGGER) == null) {
      System.setProperty(LOGGER, "jdk");
    }
    if (options.http3()) {
      // Dubbo reads both once, when its Triple protocol starts (Http3Exchanger.init).
      System.setProperty(HTTP3_ENABLED, "true");
      if (options.mode().equals("consumer")) {
        System.setProperty(HTTP3_NEGOTIATION, "false");
      }
    }
    BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    ApplicationConfig application = new ApplicationConfig(
        options.application() != null ? options.application() : "triple-dubbo-interop-" + options.mode());
    application.setQosEnable(false);
    if (options.metadataType() != null) {
      application.setMetadataType(options.metadataType());
    }
    DubboBootstrap bootstrap = DubboBootstrap.getInstance()
        .application(application)
        .registry(options.registry() == null
            ? new RegistryConfig(RegistryConfig.NO_AVAILABLE)
            : new RegistryConfig("zookeeper://" + options.registry() + "?registry-type=service"));
    if (options.tracing()) {
      bootstrap.tracing(tracing());
    }
    if (options.mode().equals("provider")) {
      int port = options.port() == 0 ? freePort() : options.port();
      ProtocolConfig tri = new ProtocolConfig("tri", port);
      if (options.registry() != null) {
        // The address it registers; it still binds every interface.
        tri.setHost(options.host() != null ? options.host() : "127.0.0.1");
      }
      if (options.serialization() != null) {
        tri.setSerialization(options.serialization());
      }
      if (options.preferSerialization() != null) {
        tri.setPreferSerialization(options.preferSerialization());
      }
      ReferenceConfig<PlainService> relay = null;
      if (options.relay() != null) {
        relay = new ReferenceConfig<>();
        relay.setInterface(PlainService.class);
        relay.setUrl("tri://" + options.relay() + "/" + PlainService.class.getName());
        relay.setTimeout(options.timeoutMillis());
        relay.setRetries(0);
        relay.setCheck(false);
        bootstrap.reference(relay);
      }
      if (options.cert() != null) {
        SslConfig ssl = new SslConfig();
        ssl.setServerKeyCertChainPath(options.cert());
        ssl.setServerPrivateKeyPath(options.key());
        bootstrap.ssl(ssl);
      }
      bootstrap.protocol(tri)
          .service(export(PlainService.class, new DubboPlainService("default", relay), options.version(),
              options.group()))
          .service(export(ProtoService.class, new DubboProtoService(), options.version(), options.group()));
      if (options.rest()) {
        bootstrap.service(export(HttpMethodRequestService.class, new HttpMethodRequests(), null, null))
            .service(export(ItemResource.class, new ItemResources(), null, null))
            .service(export(DemoService.class, new DemoServices(), null, null))
            .service(export(TagService.class, new TagServices(), null, null))
            .service(export(ConditionService.class, new ConditionServices(), null, null))
            .service(export(MediaResource.class, new MediaResources(), null, null))
            .service(export(FormResource.class, new FormResources(), null, null))
            .service(export(SignupService.class, new SignupServices(), null, null));
      }
      if (options.rest() || options.overloads()) {
        bootstrap.service(export(OverloadService.class, new OverloadServices(), null, null));
      }
      for (String[] also : options.alsoExport()) {
        bootstrap.service(export(PlainService.class, new DubboPlainService(also[2]), also[0], also[1]));
      }
      bootstrap.start();
      waitUntilAccepting(options.host() != null ? options.host() : "127.0.0.1", port);
      protocol.println("READY " + port);
      while (commands.readLine() != null) {
        // A provider takes no commands; it lives until its input ends.
      }
    } else {
      ReferenceConfig<PlainService> plain = refer(PlainService.class, options);
      ReferenceConfig<ProtoService> proto = refer(ProtoService.class, options);
      ReferenceConfig<GenericService> generic = referGeneric(PlainService.class.getName(), options);
      bootstrap.reference(plain).reference(proto).reference(generic);
      ReferenceConfig<OverloadService> overloads = options.overloads() ? refer(OverloadService.class, options) : null;
      ReferenceConfig<GenericService> genericOverloads =
          options.overloads() ? referGeneric(OverloadService.class.getName(), options) : null;
      if (overloads != null) {
        bootstrap.reference(overloads).reference(genericOverloads);
      }
      bootstrap.start();
      Map<Class<?>, Object> proxies = new java.util.HashMap<>(
          Map.of(PlainService.class, plain.get(), ProtoService.class, proto.get()));
      if (overloads != null) {
        proxies.put(OverloadService.class, overloads.get());
      }
      Map<String, GenericService> generics = new java.util.HashMap<>(Map.of(PlainService.class.getName(), generic.get()));
      if (genericOverloads != null) {
        generics.put(OverloadService.class.getName(), genericOverloads.get());
      }
      ConsumerCommands consumer = new ConsumerCommands(proxies, generics,
          options.registry() == null ? null : configCenter(options.registry()));
      protocol.println("READY");
      for (String line = commands.readLine(); line != null; line = commands.readLine()) {
        if (!line.isBlank()) {
          protocol.println(consumer.execute(line));
        }
      }
    }
    bootstrap.stop();
    System.exit(0);
  }

  /**
   * Dubbo's config center on the ZooKeeper at {@code address}, made as Dubbo Admin makes it: the
   * {@code zookeeper} {@link DynamicConfigurationFactory} given the ensemble's URL.
   */
  private static DynamicConfiguration configCenter(String address) {
    return ApplicationModel.defaultModel().getExtensionLoader(DynamicConfigurationFactory.class)
        .getExtension("zookeeper").getDynamicConfiguration(URL.valueOf("zookeeper://" + address));
  }

  /**
   * Dubbo's tracing as an application turns it on: OpenTelemetry through Micrometer Tracing, W3C trace
   * context and baggage (Dubbo's defaults), every trace sampled (Dubbo's default samples 10%).
   */
  private static TracingConfig tracing() {
    TracingConfig tracing = new TracingConfig();
    tracing.setEnabled(true);
    tracing.setSampling(new SamplingConfig(1.0f));
    return tracing;
  }

  private static <T> ServiceConfig<T> export(Class<T> type, T implementation, String version, String group) {
    ServiceConfig<T> service = new ServiceConfig<>();
    service.setInterface(type);
    service.setRef(implementation);
    service.setVersion(version == null || version.isEmpty() ? null : version);
    service.setGroup(group == null || group.isEmpty() ? null : group);
    return service;
  }

  private static <T> ReferenceConfig<T> refer(Class<T> type, PeerOptions options) {
    ReferenceConfig<T> reference = new ReferenceConfig<>();
    reference.setInterface(type);
    configure(reference, type.getName(), options);
    return reference;
  }

  /** A generic reference ({@code GenericService.$invoke}) to the interface named {@code name}. */
  private static ReferenceConfig<GenericService> referGeneric(String name, PeerOptions options) {
    ReferenceConfig<GenericService> reference = new ReferenceConfig<>();
    reference.setInterface(name);
    reference.setGeneric("true");
    configure(reference, name, options);
    return reference;
  }

  private static void configure(ReferenceConfig<?> reference, String name, PeerOptions options) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (options.serialization() != null) {
      parameters.put("serialization", options.serialization());
    }
    if (options.address() != null) {
      StringBuilder url = new StringBuilder("tri://").append(options.address()).append('/').append(name);
      char separator = '?';
      for (Map.Entry<String, String> parameter : parameters.entrySet()) {
        url.append(separator).append(parameter.getKey()).append('=').append(parameter.getValue());
        separator = '&';
      }
      reference.setUrl(url.toString());
    } else {
      reference.setParameters(parameters);
      if (options.providedBy() != null) {
        reference.setProvidedBy(options.providedBy());
      }
    }
    reference.setTimeout(options.timeoutMillis());
    reference.setRetries(0);
    reference.setCheck(false);
    if (options.loadbalance() != null) {
      reference.setLoadbalance(options.loadbalance());
    }
    reference.setVersion(options.version());
    reference.setGroup(options.group());
  }

  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0)) {
      return probe.getLocalPort();
    }
  }

  private static void waitUntilAccepting(String host, int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(host, port), 1000);
        return;
      } catch (IOException e) {
        TimeUnit.MILLISECONDS.sleep(50);
      }
    }
    throw new IllegalStateException("Dubbo did not open port " + port);
  }
}
