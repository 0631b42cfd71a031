package io.triplerpc.registry.internal.remote;

import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.wire.WireFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A {@code RemoteRegistry}'s consumer side: its subscriptions, each a {@link RemoteSubscription}
 * keeping a server stream open, and the lookups of metadata and of a service's applications.
 * Nothing here is kept to be sent again. Thread-safe; arguments are checked by
 * {@code RemoteRegistry}.
 */
public final class ConsumerSide {

  private final RegistryConnection connection;
  private final ScheduledExecutorService scheduler;
  private final long keepaliveNanos;
  private final long initialBackoffNanos;
  private final long maxBackoffNanos;
  private final Set<RemoteSubscription> subscriptions = ConcurrentHashMap.newKeySet();

  /**
   * The consumer side over {@code connection}; streams are watched and reopened on
   * {@code scheduler}, as {@link RemoteSubscription} says.
   */
  public ConsumerSide(RegistryConnection connection, ScheduledExecutorService scheduler, long keepaliveNanos,
      long initialBackoffNanos, long maxBackoffNanos) {
    this.connection = connection;
    this.scheduler = scheduler;
    this.keepaliveNanos = keepaliveNanos;
    this.initialBackoffNanos = initialBackoffNanos;
    this.maxBackoffNanos = maxBackoffNanos;
  }

  /** The metadata of {@code application} at {@code revision}, asked of the server. */
  public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
    return connection.calls()
        .getMetadata(MetadataRequest.newBuilder().setApplication(application).setRevision(revision).build())
        .thenApply(WireFormat::fromProto);
  }

  /** The applications that serve {@code serviceName}, asked of the server. */
  public CompletableFuture<Set<String>> applications(String serviceName) {
    return connection.calls().applications(ApplicationsRequest.newBuilder().setService(serviceName).build())
        .thenApply(response -> Set.copyOf(response.getApplicationsList()));
  }

  /**
   * Subscribes {@code listener} to {@code application}'s instances; it is called on a callback
   * thread of the connection's client, one call at a time, and closing the subscription waits for a
   * call in progress.
   */
  public Subscription subscribe(String application, InstanceListener listener) {
    RemoteSubscription[] self = new RemoteSubscription[1];
    RemoteSubscription subscription = new RemoteSubscription(application, listener, connection::streams,
        connection::replace, scheduler, System::nanoTime, keepaliveNanos, initialBackoffNanos, maxBackoffNanos,
        () -> subscriptions.remove(self[0]));
    self[0] = subscription;
    subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /** Closes every subscription: their listeners are called no more. */
  public void close() {
    for (RemoteSubscription subscription : List.copyOf(subscriptions)) {
      subscription.close();
    }
  }
}
