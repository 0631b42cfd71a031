package io.triplerpc.spi;

/** Makes the {@link Cluster} of a client, given how that client opens connections. */
@FunctionalInterface
public interface ClusterFactory {

  /** A cluster whose connections come from {@code connector}. */
  Cluster newCluster(Connector connector);
}
