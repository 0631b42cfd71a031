package io.triplerpc.registry;

import io.triplerpc.registry.internal.DirectorySettings;
import io.triplerpc.registry.internal.RegistryCluster;
import io.triplerpc.registry.internal.Snapshots;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.ClusterFactory;
import io.triplerpc.spi.Connector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Finds a client's servers in a {@link Registry}: for each service called, the applications serving
 * it, then their instances as the registry pushes them, with calls spread by a {@link LoadBalancing}
 * and idempotent calls retried on another instance after UNAVAILABLE.
 *
 * <pre>{@code
 * TripleClient client = TripleClient.builder()
 *     .cluster(Discovery.using(registry).loadBalancing(LoadBalancing.POWER_OF_TWO_CHOICES).build())
 *     .build();
 * }</pre>
 */
public final class Discovery implements ClusterFactory {

  private final Builder builder;

  private Discovery(Builder builder) {
    this.builder = builder;
  }

  /** A builder of discovery through {@code registry}. */
  public static Builder using(Registry registry) {
    return new Builder(Objects.requireNonNull(registry, "registry"));
  }

  @Override
  public Cluster newCluster(Connector connector) {
    DirectorySettings settings = new DirectorySettings(
        builder.balancing,
        builder.retries,
        builder.coalesceWindow.toNanos(),
        builder.snapshotDelay.toNanos(),
        builder.emptyProtection,
        builder.initialWait.toNanos(),
        (directory, changes) -> {});
    Snapshots snapshots = builder.snapshotDirectory == null ? null : new Snapshots(builder.snapshotDirectory);
    return new RegistryCluster(builder.registry, builder.closeRegistry, connector, settings, snapshots,
        builder.applications);
  }

  /** Builds a {@link Discovery}. Not thread-safe. */
  public static final class Builder {

    private final Registry registry;
    private LoadBalancing balancing = LoadBalancing.WEIGHTED_RANDOM;
    private int retries = 2;
    private Duration coalesceWindow = Duration.ofMillis(20);
    private Duration snapshotDelay = Duration.ofSeconds(1);
    private boolean emptyProtection = true;
    private Duration initialWait = Duration.ofSeconds(3);
    private Path snapshotDirectory;
    private boolean closeRegistry;
    private final Map<String, String> applications = new HashMap<>();

    private Builder(Registry registry) {
      this.registry = registry;
    }

    /** How an instance is picked per call; {@link LoadBalancing#WEIGHTED_RANDOM} by default. */
    public Builder loadBalancing(LoadBalancing balancing) {
      this.balancing = Objects.requireNonNull(balancing, "balancing");
      return this;
    }

    /**
     * Further attempts, each on another instance, of a call to an idempotent method
     * ({@code @TripleMethod(idempotent = true)}) that fails with UNAVAILABLE before any response; 2
     * by default, 0 to fail fast always. Other calls are never retried.
     */
    public Builder retries(int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("retries must not be negative: " + retries);
      }
      this.retries = retries;
      return this;
    }

    /**
     * Changes arriving during a burst are collected for this long and applied together; a change
     * after a quiet spell applies at once. 20 ms by default; zero applies every change at once.
     */
    public Builder coalesceWindow(Duration window) {
      this.coalesceWindow = Objects.requireNonNull(window, "window");
      return this;
    }

    /**
     * Whether an empty list of instances after a non-empty one is ignored (a registry in trouble
     * must not wipe working addresses; removals one by one still apply); on by default.
     */
    public Builder emptyProtection(boolean enabled) {
      this.emptyProtection = enabled;
      return this;
    }

    /** How long the first calls to a service wait for its first list of instances; 3 s by default. */
    public Builder initialWait(Duration wait) {
      this.initialWait = Objects.requireNonNull(wait, "wait");
      return this;
    }

    /**
     * Keeps the last known instances, metadata and mappings in files in {@code directory} (rewritten
     * at most once per {@code delay}), so a consumer restarted while the registry is down still
     * finds its providers. Off by default.
     */
    public Builder snapshotDirectory(Path directory, Duration delay) {
      this.snapshotDirectory = Objects.requireNonNull(directory, "directory");
      this.snapshotDelay = Objects.requireNonNull(delay, "delay");
      return this;
    }

    /** Keeps the last known state in files in {@code directory}, rewritten at most once a second. */
    public Builder snapshotDirectory(Path directory) {
      return snapshotDirectory(directory, Duration.ofSeconds(1));
    }

    /** Names the application serving {@code serviceName}, so the registry's mapping is not asked. */
    public Builder application(String serviceName, String application) {
      applications.put(Objects.requireNonNull(serviceName, "serviceName"),
          Objects.requireNonNull(application, "application"));
      return this;
    }

    /** Closes the registry when the client closes (for registries made for this client alone). */
    public Builder closeRegistryWithClient(boolean close) {
      this.closeRegistry = close;
      return this;
    }

    /** The discovery, to pass to {@code TripleClient.Builder.cluster}. */
    public Discovery build() {
      return new Discovery(this);
    }
  }
}
