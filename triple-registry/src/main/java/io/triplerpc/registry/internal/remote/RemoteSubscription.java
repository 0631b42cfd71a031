package io.triplerpc.registry.internal.remote;

import com.google.protobuf.TextFormat;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.ClientResponseObserver;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.internal.wire.WireFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's instances pushed from a registry server to an {@link InstanceListener}, over a
 * {@code Subscribe} server stream that is reopened, with backoff, whenever it ends.
 *
 * <p>Each stream's first batch is a RESYNC ({@link InstanceListener#onResync}), later ones CHANGES
 * ({@link InstanceListener#onChanges}). When a stream fails the listener hears
 * {@link InstanceListener#onDisconnected} once (not again for each failed retry) and nothing else
 * until the next stream's RESYNC: no empty list is made up. Malformed records are skipped with a
 * warning; the batch's other records are delivered.
 *
 * <p>The server is asked for a keepalive batch every {@code keepaliveNanos}; a stream that brings
 * nothing for three intervals is stalled (a dead peer behind a connection that looks open): it is
 * cancelled, the connection is reported to {@code stalled}, and the stream reopened.
 *
 * <p>The listener is called with this object's monitor held, one call at a time and in order, so
 * once {@link #close} returns it is called no more.
 */
public final class RemoteSubscription implements Subscription {

  private static final Logger log = LoggerFactory.getLogger(RemoteSubscription.class);
  private static final double BACKOFF_JITTER = 0.2;
  /** Prints a skipped record for the warning. */
  private static final TextFormat.Printer ONE_LINE = TextFormat.printer().emittingSingleLine(true);

  private final String application;
  private final InstanceListener listener;
  /** The current connection's proxy for streams; it changes when a stalled connection is replaced. */
  private final Supplier<RegistryService> streams;
  /** Told the proxy of a stream that stalled, so its connection can be replaced. */
  private final Consumer<RegistryService> stalled;
  private final ScheduledExecutorService scheduler;
  /** The time stalls are measured by, as {@link #scheduler} counts. */
  private final LongSupplier clock;
  private final long keepaliveNanos;
  private final long initialBackoffNanos;
  private final long maxBackoffNanos;
  private final Runnable onClose;

  /** Guarded by this. Once true, no stream is opened and the listener is not called. */
  private boolean closed;
  /** Guarded by this. The open stream, or null between streams. */
  private BatchObserver stream;
  /** Guarded by this. The wait before the next reconnection. */
  private long backoffNanos;
  /** Guarded by this. Whether the listener heard of the current outage already. */
  private boolean disconnectReported;

  /**
   * A subscription to {@code application}, not yet started; {@code onClose} runs once, when it is
   * closed. {@code keepaliveNanos} 0 asks for no keepalives and watches for no stall. Stall checks and
   * reconnections run on {@code scheduler}, whose time {@code clock} tells.
   */
  public RemoteSubscription(String application, InstanceListener listener, Supplier<RegistryService> streams,
      Consumer<RegistryService> stalled, ScheduledExecutorService scheduler, LongSupplier clock, long keepaliveNanos,
      long initialBackoffNanos, long maxBackoffNanos, Runnable onClose) {
    this.application = application;
    this.listener = listener;
    this.streams = streams;
    this.stalled = stalled;
    this.scheduler = scheduler;
    this.clock = clock;
    this.keepaliveNanos = keepaliveNanos;
    this.initialBackoffNanos = initialBackoffNanos;
    this.maxBackoffNanos = maxBackoffNanos;
    this.backoffNanos = initialBackoffNanos;
    this.onClose = onClose;
  }

  /** Opens the first stream. */
  public void start() {
    connect();
  }

  private void connect() {
    BatchObserver observer;
    synchronized (this) {
      if (closed) {
        return;
      }
      observer = new BatchObserver(streams.get());
      stream = observer;
    }
    try {
      observer.proxy.subscribe(SubscribeRequest.newBuilder()
          .setApplication(application)
          .setKeepaliveMillis(TimeUnit.NANOSECONDS.toMillis(keepaliveNanos))
          .build(), observer);
      if (keepaliveNanos > 0) {
        observer.watchdog = scheduler.scheduleWithFixedDelay(() -> checkStalled(observer), keepaliveNanos,
            keepaliveNanos, TimeUnit.NANOSECONDS);
      }
    } catch (RuntimeException e) {
      observer.onError(e);
      return;
    }
    synchronized (this) {
      if (closed || stream != observer) {
        observer.cancel();
      }
    }
  }

  /** Ends {@code observer}'s stream if it brought nothing for three keepalive intervals. */
  private void checkStalled(BatchObserver observer) {
    long quietNanos = clock.getAsLong() - observer.lastReceivedNanos;
    if (quietNanos < 3 * keepaliveNanos) {
      return;
    }
    synchronized (this) {
      if (closed || stream != observer) {
        observer.cancel();
        return;
      }
    }
    log.warn("Registry subscription to {} heard nothing for {} ms; reconnecting", application,
        TimeUnit.NANOSECONDS.toMillis(quietNanos));
    stalled.accept(observer.proxy);
    ended(observer, new StatusException(io.triplerpc.Status.UNAVAILABLE.withDescription(
        "No batch from the registry for " + TimeUnit.NANOSECONDS.toMillis(quietNanos) + " ms")));
    observer.cancel();
  }

  @Override
  public void close() {
    BatchObserver open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = stream;
      stream = null;
    }
    if (open != null) {
      open.cancel();
    }
    onClose.run();
  }

  /** The stream ended: tell the listener (once per outage) and reconnect after a backoff. */
  private synchronized void ended(BatchObserver observer, Throwable cause) {
    ScheduledFuture<?> watchdog = observer.watchdog;
    if (watchdog != null) {
      watchdog.cancel(false);
    }
    if (closed || stream != observer) {
      return;
    }
    stream = null;
    if (!disconnectReported) {
      disconnectReported = true;
      Status.Code code = Status.fromThrowable(cause).code();
      if (code == Status.Code.UNAUTHENTICATED || code == Status.Code.PERMISSION_DENIED) {
        log.warn("Registry refused the subscription to {} ({}); check the consumer's token"
            + " (RemoteRegistry.Builder.token, or token-file= in a registry:// target). Retrying.", application, cause.toString());
      } else {
        log.info("Registry subscription to {} lost: {}", application, cause.toString());
      }
      try {
        listener.onDisconnected(cause);
      } catch (RuntimeException e) {
        log.warn("Instance listener of {} failed in onDisconnected", application, e);
      }
    }
    long delay = (long) (backoffNanos * (1 + BACKOFF_JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1)));
    backoffNanos = Math.min(maxBackoffNanos, backoffNanos * 2);
    try {
      scheduler.schedule(this::connect, delay, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // The registry is closing; this subscription is about to be closed too.
    }
  }

  private synchronized void received(BatchObserver observer, InstanceBatch batch) {
    if (closed || stream != observer) {
      return;
    }
    backoffNanos = initialBackoffNanos;
    try {
      switch (batch.getType()) {
        case RESYNC:
          disconnectReported = false;
          listener.onResync(instances(batch.getInstancesList()));
          break;
        case CHANGES:
          List<InstanceChange> changes = changes(batch.getChangesList());
          if (!changes.isEmpty()) {
            listener.onChanges(changes);
          }
          break;
        default:
          log.warn("Skipping a batch of unknown type {} for {}", batch.getTypeValue(), application);
      }
    } catch (RuntimeException e) {
      log.warn("Instance listener of {} failed", application, e);
    }
  }

  private List<ServiceInstance> instances(List<Instance> messages) {
    List<ServiceInstance> instances = new ArrayList<>(messages.size());
    for (Instance message : messages) {
      ServiceInstance instance = instance(message);
      if (instance != null) {
        instances.add(instance);
      }
    }
    return instances;
  }

  private List<InstanceChange> changes(List<io.triplerpc.registry.internal.proto.InstanceChange> messages) {
    List<InstanceChange> changes = new ArrayList<>(messages.size());
    for (io.triplerpc.registry.internal.proto.InstanceChange message : messages) {
      InstanceChange.Kind kind;
      switch (message.getKind()) {
        case ADDED:
          kind = InstanceChange.Kind.ADDED;
          break;
        case UPDATED:
          kind = InstanceChange.Kind.UPDATED;
          break;
        case REMOVED:
          kind = InstanceChange.Kind.REMOVED;
          break;
        default:
          log.warn("Skipping a change of unknown kind {} for {}: {}", message.getKindValue(), application,
              ONE_LINE.printToString(message));
          continue;
      }
      ServiceInstance instance = instance(message.getInstance());
      if (instance != null) {
        changes.add(new InstanceChange(kind, instance));
      }
    }
    return changes;
  }

  /** The instance {@code message} describes, or null (with a warning) if it is malformed. */
  private ServiceInstance instance(Instance message) {
    ServiceInstance instance;
    try {
      instance = WireFormat.fromProto(message);
    } catch (IllegalArgumentException | NullPointerException e) {
      log.warn("Skipping a malformed instance of {} from the registry ({}): {}", application, e.getMessage(),
          ONE_LINE.printToString(message));
      return null;
    }
    if (!instance.application().equals(application)) {
      log.warn("Skipping an instance of {} pushed to a subscription to {}: {}", instance.application(), application,
          instance);
      return null;
    }
    return instance;
  }

  /** One {@code Subscribe} stream. Triple calls it one event at a time, in order. */
  private final class BatchObserver implements ClientResponseObserver<SubscribeRequest, InstanceBatch> {

    /** The proxy (so the connection) this stream was opened on. */
    final RegistryService proxy;
    /** When the stream opened or last brought a batch ({@link #clock}). */
    volatile long lastReceivedNanos = clock.getAsLong();
    /** The stall check of this stream, or null. */
    volatile ScheduledFuture<?> watchdog;
    private volatile ClientCallStreamObserver<SubscribeRequest> call;

    BatchObserver(RegistryService proxy) {
      this.proxy = proxy;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<SubscribeRequest> requestStream) {
      call = requestStream;
    }

    /** Cancels the call and its stall check. */
    void cancel() {
      ScheduledFuture<?> w = watchdog;
      if (w != null) {
        w.cancel(false);
      }
      ClientCallStreamObserver<SubscribeRequest> c = call;
      if (c != null) {
        c.cancel("Subscription closed", null);
      }
    }

    @Override
    public void onNext(InstanceBatch batch) {
      lastReceivedNanos = clock.getAsLong();
      received(this, batch);
    }

    @Override
    public void onError(Throwable t) {
      ended(this, t);
    }

    @Override
    public void onCompleted() {
      ended(this, new StatusException(io.triplerpc.Status.UNAVAILABLE.withDescription("Registry ended the subscription")));
    }
  }
}
