package io.triplerpc.interop.dubbo;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import java.util.concurrent.CompletableFuture;

/**
 * Adds fixed request headers to every call and keeps the trailers of the last one that ended: how a
 * Triple client sends Dubbo attachments, and Dubbo's {@code tri-service-version}/{@code -group}
 * headers until Triple's client sends them itself.
 */
final class Headers implements ClientInterceptor {

  private final String[] namesAndValues;
  private volatile CompletableFuture<Metadata> trailers = new CompletableFuture<>();

  /** Headers {@code name, value, name, value...}. */
  Headers(String... namesAndValues) {
    this.namesAndValues = namesAndValues.clone();
  }

  /** The trailers of the last call that ended (waits for one). */
  Metadata trailers() {
    return trailers.join();
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
    CompletableFuture<Metadata> received = new CompletableFuture<>();
    trailers = received;
    return new ForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
          headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        super.start(new ForwardingClientCallListener<>(listener) {
          @Override
          public void onClose(Status status, Metadata trailers) {
            received.complete(trailers);
            super.onClose(status, trailers);
          }
        }, headers);
      }
    };
  }
}
