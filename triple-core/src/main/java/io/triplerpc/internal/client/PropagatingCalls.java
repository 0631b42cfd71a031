package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.internal.server.ServerCallContext;
import java.util.concurrent.TimeUnit;

/**
 * Calls made while a service handles a call inherit it, as with grpc-java's {@code Context} and Dubbo's
 * timeout countdown: their deadline is the server call's if that is sooner than their own, and they are
 * cancelled when the server call ends. Outside a service (or with {@link CallOptions#withoutPropagation()})
 * a call goes as it is, for one thread-local read.
 */
final class PropagatingCalls implements ClientCallFactory {

  private final ClientCallFactory delegate;

  PropagatingCalls(ClientCallFactory delegate) {
    this.delegate = delegate;
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    ServerCallContext parent = options.propagation() ? ServerCallContext.currentOrNull() : null;
    if (parent == null) {
      return delegate.newCall(method, options);
    }
    long remaining = parent.remainingNanos();
    CallOptions inherited = options;
    if (remaining != Long.MAX_VALUE && (options.timeoutNanos() == 0 || remaining < options.timeoutNanos())) {
      // A deadline already past still makes a call, which fails at once on its own timer.
      inherited = options.withTimeout(Math.max(1, remaining), TimeUnit.NANOSECONDS);
    }
    return new Child<>(delegate.newCall(method, inherited), parent);
  }

  /** A call made for {@code parent}: cancelled when it ends first, forgotten by it when this one ends. */
  private static final class Child<Q, R> extends ForwardingClientCall<Q, R> {
    private final ServerCallContext parent;
    private final Runnable cancel = () -> cancel("The server call it was made for ended", null);

    Child(ClientCall<Q, R> delegate, ServerCallContext parent) {
      super(delegate);
      this.parent = parent;
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      super.start(new ForwardingClientCallListener<>(listener) {
        @Override
        public void onClose(Status status, Metadata trailers) {
          parent.forget(cancel);
          super.onClose(status, trailers);
        }
      }, headers);
      parent.whenEnded(cancel);
    }
  }
}
