package io.triplerpc.internal.observe;

import io.triplerpc.ObservedCall;
import io.triplerpc.Status;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A call or attempt being observed: the call path counts its messages here and ends it once. Each
 * counter has one writer at a time (a call's sends are not concurrent, nor are its deliveries), so it
 * is written with release semantics, a plain store on x86, rather than a volatile one with its fence:
 * four of them per unary call on either side. The transport's hand-offs (write queue, delivery to the
 * call's executor) order the counts before the end that reads them; a reader elsewhere sees them soon.
 * The status, written last of what the end sets, publishes the duration with it.
 */
public final class ObservedCallImpl implements ObservedCall {

  private static final AtomicIntegerFieldUpdater<ObservedCallImpl> ENDED =
      AtomicIntegerFieldUpdater.newUpdater(ObservedCallImpl.class, "ended");
  private static final VarHandle MESSAGES_SENT;
  private static final VarHandle MESSAGES_RECEIVED;
  private static final VarHandle MESSAGE_BYTES_SENT;
  private static final VarHandle MESSAGE_BYTES_RECEIVED;

  static {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      MESSAGES_SENT = lookup.findVarHandle(ObservedCallImpl.class, "messagesSent", long.class);
      MESSAGES_RECEIVED = lookup.findVarHandle(ObservedCallImpl.class, "messagesReceived", long.class);
      MESSAGE_BYTES_SENT = lookup.findVarHandle(ObservedCallImpl.class, "messageBytesSent", long.class);
      MESSAGE_BYTES_RECEIVED = lookup.findVarHandle(ObservedCallImpl.class, "messageBytesReceived", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final CallObservers observers;
  private final Kind kind;
  private final String method;
  private final boolean knownMethod;
  private final String target;
  private final String protocol;
  private final SocketAddress peer;
  private final int previousAttempts;
  private final long startNanos;
  private volatile int ended;
  private volatile Status status;
  /** Written before {@link #status}, read after it. */
  private long durationNanos;
  private volatile long messagesSent;
  private volatile long messagesReceived;
  private volatile long messageBytesSent;
  private volatile long messageBytesReceived;

  private ObservedCallImpl(CallObservers observers, Kind kind, String method, boolean knownMethod, String target,
      String protocol, SocketAddress peer, int previousAttempts) {
    this.observers = observers;
    this.kind = kind;
    this.method = method;
    this.knownMethod = knownMethod;
    this.target = target;
    this.protocol = protocol;
    this.peer = peer;
    this.previousAttempts = previousAttempts;
    this.startNanos = System.nanoTime();
  }

  /** A client call or attempt that starts now, told to {@code observers}. */
  public static ObservedCallImpl client(CallObservers observers, Kind kind, String method, String target,
      SocketAddress peer, int previousAttempts) {
    ObservedCallImpl call = new ObservedCallImpl(observers, kind, method, true, target, null, peer, previousAttempts);
    observers.started(call);
    return call;
  }

  /** A server call that starts now, told to {@code observers}. */
  public static ObservedCallImpl server(CallObservers observers, String method, boolean knownMethod, String protocol,
      SocketAddress peer) {
    ObservedCallImpl call =
        new ObservedCallImpl(observers, Kind.SERVER_CALL, method, knownMethod, null, protocol, peer, 0);
    observers.started(call);
    return call;
  }

  /** A message of {@code wireBytes} (compressed, unframed) went out. */
  public void messageSent(long wireBytes) {
    MESSAGES_SENT.setRelease(this, messagesSent + 1);
    MESSAGE_BYTES_SENT.setRelease(this, messageBytesSent + wireBytes);
  }

  /** A message of {@code wireBytes} came in. */
  public void messageReceived(long wireBytes) {
    MESSAGES_RECEIVED.setRelease(this, messagesReceived + 1);
    MESSAGE_BYTES_RECEIVED.setRelease(this, messageBytesReceived + wireBytes);
  }

  /** Ends it with {@code status} and tells the observers; only the first end counts. */
  public void end(Status status) {
    if (!ENDED.compareAndSet(this, 0, 1)) {
      return;
    }
    this.durationNanos = System.nanoTime() - startNanos;
    this.status = status;
    observers.ended(this);
  }

  @Override
  public Kind kind() {
    return kind;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public boolean knownMethod() {
    return knownMethod;
  }

  @Override
  public String target() {
    return target;
  }

  @Override
  public String protocol() {
    return protocol;
  }

  @Override
  public SocketAddress peer() {
    return peer;
  }

  @Override
  public int previousAttempts() {
    return previousAttempts;
  }

  @Override
  public long startNanos() {
    return startNanos;
  }

  @Override
  public Status status() {
    return status;
  }

  @Override
  public long durationNanos() {
    // Read after the status that publishes it.
    return status == null ? 0 : durationNanos;
  }

  @Override
  public long messagesSent() {
    return messagesSent;
  }

  @Override
  public long messagesReceived() {
    return messagesReceived;
  }

  @Override
  public long messageBytesSent() {
    return messageBytesSent;
  }

  @Override
  public long messageBytesReceived() {
    return messageBytesReceived;
  }

  @Override
  public String toString() {
    return kind + " " + method + (status == null ? " (running)" : " " + status.code() + " in " + durationNanos + " ns");
  }
}
