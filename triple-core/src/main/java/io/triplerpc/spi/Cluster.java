package io.triplerpc.spi;

import io.triplerpc.CallOptions;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;

/**
 * The servers behind a client that was built with a {@link ClusterFactory} or a target such as
 * {@code registry://host:port} instead of one address: its {@link Picker}s choose the server of each
 * attempt of a call among {@link Connection}s opened by the client's {@link Connector}; the client's
 * attempt loop decides how many attempts there are.
 *
 * <p>Thread-safe; no method blocks.
 */
public interface Cluster extends AutoCloseable {

  /**
   * Called when a proxy of {@code serviceName} is made, before its first call: start finding the servers
   * of the export its calls name ({@link CallOptions#serviceVersion()}, {@link CallOptions#serviceGroup()}).
   */
  default void prepare(String serviceName, CallOptions options) {}

  /**
   * The picker of a call of {@code method} with {@code options} (their version and group name the
   * export called). Called once per call: cheap, never blocking.
   */
  Picker picker(MethodDescriptor<?, ?> method, CallOptions options);

  /** Whether a connection to some server is up now. */
  boolean isActive();

  /** Write-queue counters summed over the open connections. */
  WriteStats writeStats();

  /** Closes every connection and stops watching for servers. Never blocks. */
  @Override
  void close();
}
