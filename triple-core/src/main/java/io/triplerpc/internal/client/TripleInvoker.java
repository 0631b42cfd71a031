package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.descriptor.CallShape;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.internal.descriptor.WrappedMethod;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Objects;
import java.util.concurrent.CompletionException;

/**
 * The invocation handler behind every proxy: finds the method's binding (computed once when the
 * proxy was made) and drives the call in the shape its Java signature asks for.
 */
public final class TripleInvoker implements InvocationHandler {

  private final ServiceDescriptor service;
  private final ClientCallFactory calls;
  private final CallOptions options;
  private final ClientCallFactory exceptionAwareCalls;

  private TripleInvoker(ServiceDescriptor service, ClientCallFactory calls, CallOptions options) {
    this.service = service;
    this.calls = calls;
    this.options = options;
    this.exceptionAwareCalls = new ClientCallFactory() {
      @Override
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions callOptions) {
        return new ExceptionHeaderCall<>(calls.newCall(method, callOptions));
      }
    };
  }

  /**
   * A unary call of a method with plain Java types: its response is an exception the service threw
   * when the response headers carry a non-zero exception code, which marks the undecoded response.
   */
  private static final class ExceptionHeaderCall<Q, R> extends ForwardingClientCall<Q, R> {

    ExceptionHeaderCall(ClientCall<Q, R> delegate) {
      super(delegate);
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      super.start(new ForwardingClientCallListener<R>(listener) {
        private boolean exception;

        @Override
        public void onHeaders(Metadata responseHeaders) {
          exception = WrapperCodecs.isExceptionCode(responseHeaders.get(WrappedMethod.EXCEPTION_CODE_HEADER));
          super.onHeaders(responseHeaders);
        }

        @Override
        public void onMessage(R message) {
          if (exception && message instanceof WrappedMethod.RawResponse) {
            ((WrappedMethod.RawResponse) message).markException();
          }
          super.onMessage(message);
        }
      }, headers);
    }
  }

  /** A proxy of {@code serviceInterface} whose calls go through {@code calls}. */
  public static <T> T newProxy(Class<T> serviceInterface, ClientCallFactory calls, CallOptions options) {
    return newProxy(serviceInterface, ServiceDescriptor.of(serviceInterface), calls, options);
  }

  /**
   * A proxy whose responses may also hold values of the classes {@code allowList} (a client's, complete by
   * now) allows.
   */
  public static <T> T newProxy(Class<T> serviceInterface, ClientCallFactory calls, CallOptions options,
      DeserializationAllowList allowList) {
    // Clients that allow nothing extra share one descriptor (and its codecs' caches) per interface.
    ServiceDescriptor service = allowList.isEmpty()
        ? ServiceDescriptor.of(serviceInterface) : ServiceDescriptor.of(serviceInterface, allowList);
    return newProxy(serviceInterface, service, calls, options);
  }

  /** A proxy of {@code serviceInterface} as {@code service} describes it (generic calls name another service). */
  public static <T> T newProxy(
      Class<T> serviceInterface, ServiceDescriptor service, ClientCallFactory calls, CallOptions options) {
    TripleInvoker invoker = new TripleInvoker(service, calls, options);
    Object proxy = Proxy.newProxyInstance(
        serviceInterface.getClassLoader(), new Class<?>[] {serviceInterface}, invoker);
    return serviceInterface.cast(proxy);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    MethodBinding binding = service.binding(method);
    if (binding == null) {
      return invokeObjectMethod(proxy, method, args);
    }
    MethodDescriptor<Object, Object> descriptor = binding.descriptor();
    WrappedMethod wrapped = binding.wrapped();
    if (wrapped != null && wrapped.isUnary()) {
      Object[] arguments = args == null ? new Object[0] : args;
      if (binding.shape() == CallShape.BLOCKING_UNARY) {
        return wrapped.decode(ClientCalls.blockingUnary(exceptionAwareCalls, descriptor, options, arguments));
      }
      return ClientCalls.futureUnary(exceptionAwareCalls, descriptor, options, arguments).thenApply(response -> {
        try {
          return wrapped.decode(response);
        } catch (Throwable t) {
          throw t instanceof CompletionException ? (CompletionException) t : new CompletionException(t);
        }
      });
    }
    switch (binding.shape()) {
      case BLOCKING_UNARY:
        return ClientCalls.blockingUnary(calls, descriptor, options, args[0]);
      case FUTURE_UNARY:
        return ClientCalls.futureUnary(calls, descriptor, options, args[0]);
      case SERVER_STREAMING:
        ClientCalls.serverStreaming(
            calls, descriptor, options, args[0], (StreamObserver<Object>) Objects.requireNonNull(args[1], "responseObserver"));
        return null;
      case REQUEST_STREAMING:
        return ClientCalls.requestStreaming(
            calls, descriptor, options, (StreamObserver<Object>) Objects.requireNonNull(args[0], "responseObserver"));
      default:
        throw new AssertionError(binding.shape());
    }
  }

  private Object invokeObjectMethod(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "TripleProxy{" + service.serviceName() + '}';
      default:
        if (method.isDefault()) {
          return InvocationHandler.invokeDefault(proxy, method, args);
        }
        throw new UnsupportedOperationException("Not an RPC method: " + method);
    }
  }
}
