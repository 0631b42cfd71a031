package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Objects;

/**
 * The invocation handler behind every proxy: finds the method's binding (computed once when the
 * proxy was made) and drives the call in the shape its Java signature asks for.
 */
public final class TripleInvoker implements InvocationHandler {

  private final ServiceDescriptor service;
  private final ClientCallFactory calls;
  private final CallOptions options;

  private TripleInvoker(ServiceDescriptor service, ClientCallFactory calls, CallOptions options) {
    this.service = service;
    this.calls = calls;
    this.options = options;
  }

  /** A proxy of {@code serviceInterface} whose calls go through {@code calls}. */
  public static <T> T newProxy(Class<T> serviceInterface, ClientCallFactory calls, CallOptions options) {
    ServiceDescriptor service = ServiceDescriptor.of(serviceInterface);
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
