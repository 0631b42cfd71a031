package io.triplerpc.registry.zookeeper;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.WriteStats;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataInfoV2;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataRequest;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Connector;
import io.triplerpc.spi.Picker;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Calls Apache Dubbo 3.3's {@code MetadataServiceV2.GetMetadataInfo} on a Dubbo provider, as a Dubbo
 * consumer does for an instance whose metadata is local: over Triple on the port the instance names,
 * with {@code tri-service-version: 2.0.0} and {@code tri-service-group:} the application.
 *
 * <p>One {@link TripleClient} (one I/O thread), built on the first call and closed with the registry;
 * each fetch opens a connection to its provider and closes it when done (a consumer fetches each
 * revision once). Thread-safe; never blocks.
 */
final class DubboMetadataService implements AutoCloseable {

  /** The service on the wire. */
  static final String SERVICE = "org.apache.dubbo.metadata.MetadataServiceV2";
  /** The version Dubbo exports it under, and the instance metadata {@code meta-v} that announces it. */
  static final String VERSION = "2.0.0";

  private static final MethodDescriptor<MetadataRequest, MetadataInfoV2> GET_METADATA_INFO = MethodDescriptor.of(
      SERVICE, "GetMetadataInfo", MethodType.UNARY,
      Serializations.codecFor(MetadataRequest.class), Serializations.codecFor(MetadataInfoV2.class), true);

  private final Duration timeout;
  /** The client and how it connects, once built; guarded by this. */
  private TripleClient client;
  private Connector connector;
  private boolean closed;

  DubboMetadataService(Duration timeout) {
    this.timeout = timeout;
  }

  /**
   * The metadata {@code application}'s instance at {@code host:port} serves under {@code revision}.
   * Fails with the call's {@link io.triplerpc.StatusException}, or an {@link IllegalStateException} if
   * the instance answered without that revision.
   */
  CompletableFuture<MetadataInfoV2> fetch(String host, int port, String application, String revision) {
    Connection connection;
    try {
      connection = connector().connect(new InetSocketAddress(host, port));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<MetadataInfoV2> result = new CompletableFuture<>();
    ClientCall<MetadataRequest, MetadataInfoV2> call = connection.newCall(GET_METADATA_INFO,
        CallOptions.DEFAULT.withTimeout(timeout).withServiceVersion(VERSION).withServiceGroup(application));
    call.start(new ClientCall.Listener<>() {
      private MetadataInfoV2 answer;

      @Override
      public void onMessage(MetadataInfoV2 message) {
        answer = message;
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        if (!status.isOk()) {
          result.completeExceptionally(status.asException(trailers));
        } else if (answer == null || !revision.equals(answer.getVersion())) {
          result.completeExceptionally(new IllegalStateException(host + ':' + port + " has no metadata of revision "
              + revision + (answer == null ? " (no answer)" : " (answered revision '" + answer.getVersion() + "')")));
        } else {
          result.complete(answer);
        }
      }
    }, new Metadata());
    call.request(2);
    call.sendMessage(MetadataRequest.newBuilder().setRevision(revision).build());
    call.halfClose();
    return result.whenComplete((answer, failure) -> connection.close());
  }

  private synchronized Connector connector() {
    if (closed) {
      throw new IllegalStateException("Registry closed");
    }
    if (client == null) {
      client = TripleClient.builder()
          .ioThreads(1)
          .cluster(connect -> {
            connector = connect;
            return new NoCluster();
          })
          .build();
    }
    return connector;
  }

  @Override
  public void close() {
    TripleClient open;
    synchronized (this) {
      closed = true;
      open = client;
      client = null;
    }
    if (open != null) {
      open.close();
    }
  }

  /** The client's cluster, which makes no calls: fetches go through the connector to the address they name. */
  private static final class NoCluster implements Cluster {

    @Override
    public Picker picker(MethodDescriptor<?, ?> method, CallOptions options) {
      throw new UnsupportedOperationException("calls name their address");
    }

    @Override
    public boolean isActive() {
      return false;
    }

    @Override
    public WriteStats writeStats() {
      return new WriteStats(0, 0);
    }

    @Override
    public void close() {}
  }
}
