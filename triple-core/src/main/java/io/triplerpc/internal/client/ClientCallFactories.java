package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ObservedCall;
import io.triplerpc.Status;
import io.triplerpc.internal.WorkerPool;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.internal.observe.ObservedCallImpl;
import io.triplerpc.serialization.MessageCodec;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/** Builds the chain of call factories a client's calls go through. */
public final class ClientCallFactories {

  private ClientCallFactories() {}

  /** {@code address} as observers name a client's target: {@code host:port}. */
  public static String hostAndPort(InetSocketAddress address) {
    return address.getHostString() + ":" + address.getPort();
  }

  /** {@code next}'s calls, each seen whole (across its attempts) by {@code observers} as a call to {@code target}. */
  public static ClientCallFactory observed(ClientCallFactory next, CallObservers observers, String target) {
    return new ClientCallFactory() {
      @Override
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            ObservedCallImpl call = ObservedCallImpl.client(
                observers, ObservedCall.Kind.CLIENT_CALL, method.fullMethodName(), target, null, 0);
            super.start(new ForwardingClientCallListener<>(listener) {
              @Override
              public void onClose(Status status, Metadata trailers) {
                call.end(status);
                super.onClose(status, trailers);
              }
            }, headers);
          }
        };
      }
    };
  }

  /** {@code next} wrapped so that {@code interceptors} run first, the first one outermost. */
  public static ClientCallFactory intercept(ClientCallFactory next, List<ClientInterceptor> interceptors) {
    ClientCallFactory calls = next;
    for (int i = interceptors.size() - 1; i >= 0; i--) {
      ClientInterceptor interceptor = interceptors.get(i);
      ClientCallFactory inner = calls;
      calls = new ClientCallFactory() {
        @Override
        public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
          return interceptor.interceptCall(method, options, inner);
        }
      };
    }
    return calls;
  }

  /**
   * {@code next}'s calls with the messages in {@code codec} ({@code "json"}: protobuf's JSON mapping)
   * instead of their descriptors' own: each method's twin descriptor is made once, on its first call.
   *
   * @throws IllegalArgumentException from {@code newCall}, if a method's messages have no such encoding
   */
  public static ClientCallFactory withCodec(ClientCallFactory next, String codec) {
    Map<MethodDescriptor<?, ?>, MethodDescriptor<?, ?>> twins = new ConcurrentHashMap<>();
    return new ClientCallFactory() {
      @Override
      @SuppressWarnings("unchecked")
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        MethodDescriptor<Q, R> twin = (MethodDescriptor<Q, R>) twins.computeIfAbsent(method, m -> inCodec(m, codec));
        return next.newCall(twin, options);
      }
    };
  }

  private static <Q, R> MethodDescriptor<Q, R> inCodec(MethodDescriptor<Q, R> method, String codec) {
    MessageCodec<Q> request = method.requestCodec().withSubtype(codec);
    MessageCodec<R> response = method.responseCodec().withSubtype(codec);
    if (request == null || response == null) {
      throw new IllegalArgumentException("The messages of " + method.fullMethodName() + " have no " + codec
          + " encoding, which the client's codec asks for");
    }
    return MethodDescriptor.of(method.serviceName(), method.methodName(), method.type(), request, response,
        method.isIdempotent());
  }

  /**
   * The default callback executor: the same kind of pool as the server's services run on
   * ({@link WorkerPool}), so a busy client hands responses to callbacks without a thread wake-up each,
   * and a callback that blocks is replaced. Its threads end when idle, so a closed client leaves none.
   */
  public static Executor newCallbackExecutor() {
    return WorkerPool.withDefaults("triple-callback");
  }

}
