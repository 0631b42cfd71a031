package io.triplerpc.spi;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.WriteStats;

/**
 * The servers behind a client that was built with a {@link ClusterFactory} or a target such as
 * {@code registry://host:port} instead of one address: each {@link #newCall} picks a server (and may
 * retry on another one) through {@link Connection}s opened by the client's {@link Connector}.
 *
 * <p>Thread-safe. {@code newCall} and the calls it makes must not block: a call made before its
 * service's servers are known waits for them without holding the caller's thread.
 */
public interface Cluster extends ClientCallFactory, AutoCloseable {

  /**
   * Called when a proxy of {@code serviceName} is made, before its first call: start finding the servers
   * of the export its calls name ({@link CallOptions#serviceVersion()}, {@link CallOptions#serviceGroup()}).
   */
  default void prepare(String serviceName, CallOptions options) {}

  /** Whether a connection to some server is up now. */
  boolean isActive();

  /** Write-queue counters summed over the open connections. */
  WriteStats writeStats();

  /** Closes every connection and stops watching for servers. Never blocks. */
  @Override
  void close();
}
