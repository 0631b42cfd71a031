package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.internal.stream.ClientTransport;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Builds the chain of call factories a client's calls go through. */
public final class ClientCallFactories {

  private ClientCallFactories() {}

  /** The end of every chain: real calls on {@code transport}. */
  public static ClientCallFactory base(
      ClientTransport transport, Executor callbackExecutor, int maxInboundMessageSize) {
    ReplayBudget replayBudget = new ReplayBudget(ReplayBudget.DEFAULT_LIMIT);
    return new ClientCallFactory() {
      @Override
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        return new ClientCallImpl<>(transport, method, options, callbackExecutor, maxInboundMessageSize, replayBudget);
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

  /** The default callback executor: a cached pool of daemon threads. */
  public static ExecutorService newCallbackExecutor() {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(
        0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
          Thread thread = new Thread(task, "triple-callback-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
    return executor;
  }
}
