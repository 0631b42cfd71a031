package io.triplerpc.registry;

import io.triplerpc.spi.ServerInfo;
import io.triplerpc.spi.ServerRegistration;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a server in a {@link Registry} as one instance of an application: on start it publishes
 * the metadata of what the server serves (once per revision), maps each service to the application,
 * then registers the instance; on shutdown it unregisters it before calls drain.
 *
 * <pre>{@code
 * TripleServer.builder()
 *     .addService(Greeter.class, new GreeterImpl())
 *     .registration(Registration.to(registry).application("greeter").build())
 *     .build().start();
 * }</pre>
 */
public final class Registration implements ServerRegistration {

  private static final Logger log = LoggerFactory.getLogger(Registration.class);

  private final Registry registry;
  private final String application;
  private final String host;
  private final int weight;
  private final Duration timeout;
  private volatile ServiceInstance instance;

  private Registration(Builder builder) {
    this.registry = builder.registry;
    this.application = builder.application;
    this.host = builder.host;
    this.weight = builder.weight;
    this.timeout = builder.timeout;
  }

  /** A builder registering into {@code registry}. */
  public static Builder to(Registry registry) {
    return new Builder(Objects.requireNonNull(registry, "registry"));
  }

  /** The instance registered, or null before the server started. */
  public ServiceInstance instance() {
    return instance;
  }

  /**
   * Publishes the metadata, the mappings, then the instance, and waits for the registry to confirm.
   *
   * @throws IllegalStateException if the registry fails or does not answer in time
   */
  @Override
  public void started(ServerInfo server) {
    MetadataInfo metadata = MetadataInfo.of(application, server.services());
    List<CompletableFuture<Void>> first = new ArrayList<>();
    first.add(registry.publishMetadata(metadata));
    for (ServerInfo.Service service : server.services()) {
      first.add(registry.map(service.name(), application));
    }
    // Metadata before the instance: a consumer that sees the instance can always read its revision.
    await(CompletableFuture.allOf(first.toArray(new CompletableFuture<?>[0])), "publish the metadata of");
    ServiceInstance registered =
        ServiceInstance.of(application, advertisedHost(server.localAddress()), server.localAddress().getPort(),
            metadata.revision()).withWeight(weight);
    await(registry.register(registered), "register");
    instance = registered;
    log.info("Registered {} serving {} services", registered, server.services().size());
  }

  @Override
  public void stopping(ServerInfo server) {
    ServiceInstance registered = instance;
    if (registered == null) {
      return;
    }
    try {
      await(registry.unregister(registered), "unregister");
    } catch (IllegalStateException e) {
      log.warn("{}; consumers drop it when its registration expires", e.getMessage());
    }
  }

  private void await(CompletableFuture<?> future, String what) {
    try {
      future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Could not " + what + " " + application + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("The registry did not answer within " + timeout + " to " + what + " " + application, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting to " + what + " " + application, e);
    }
  }

  private String advertisedHost(InetSocketAddress bound) {
    if (host != null) {
      return host;
    }
    InetAddress address = bound.getAddress();
    if (address != null && !address.isAnyLocalAddress()) {
      return address.getHostAddress();
    }
    return firstSiteAddress();
  }

  /** For a server bound to every interface: the first non-loopback IPv4 address, else loopback. */
  private static String firstSiteAddress() {
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
          continue;
        }
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
            return address.getHostAddress();
          }
        }
      }
    } catch (SocketException e) {
      log.warn("Could not list network interfaces ({}); advertising 127.0.0.1", e.toString());
    }
    return "127.0.0.1";
  }

  /** Builds a {@link Registration}. Not thread-safe. */
  public static final class Builder {

    private final Registry registry;
    private String application;
    private String host;
    private int weight = ServiceInstance.DEFAULT_WEIGHT;
    private Duration timeout = Duration.ofSeconds(10);

    private Builder(Registry registry) {
      this.registry = registry;
    }

    /** The application this server is an instance of; required. */
    public Builder application(String application) {
      this.application = Objects.requireNonNull(application, "application");
      return this;
    }

    /**
     * The host consumers should connect to; by default the address the server is bound to, or the
     * machine's first non-loopback IPv4 address when bound to all interfaces.
     */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The instance's weight for weighted balancing; {@value ServiceInstance#DEFAULT_WEIGHT} by default. */
    public Builder weight(int weight) {
      if (weight < 0) {
        throw new IllegalArgumentException("negative weight: " + weight);
      }
      this.weight = weight;
      return this;
    }

    /** How long start-up waits for the registry; 10 s by default. */
    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The registration, to pass to {@code TripleServer.Builder.registration}. */
    public Registration build() {
      if (application == null || application.isEmpty()) {
        throw new IllegalStateException("application is required");
      }
      return new Registration(this);
    }
  }
}
