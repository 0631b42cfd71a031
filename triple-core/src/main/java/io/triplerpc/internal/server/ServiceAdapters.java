package io.triplerpc.internal.server;

import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.descriptor.CallShape;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.OverloadSet;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.internal.descriptor.WrappedMethod;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.wrapper.OverloadedArguments;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Turns a service implementation into one call handler per method, by the shape of its signature. A method
 * with plain Java types answers each caller in the serialization its requests came in (see
 * {@link WrappedMethod}).
 */
public final class ServiceAdapters {

  private ServiceAdapters() {}

  /**
   * The method definitions of {@code implementation}, served as {@code serviceInterface}.
   *
   * @throws IllegalArgumentException if the interface is not a valid {@code @TripleService} or the
   *     implementation does not implement it
   */
  public static List<ServerMethodDefinition<?, ?>> definitions(Class<?> serviceInterface, Object implementation) {
    return definitions(ServiceDescriptor.of(serviceInterface), serviceInterface, implementation);
  }

  /**
   * The method definitions of {@code implementation}, served as {@code serviceInterface}, whose requests may
   * also hold values of the classes {@code allowList} allows.
   *
   * @throws IllegalArgumentException as {@link #definitions(Class, Object)} does
   */
  public static List<ServerMethodDefinition<?, ?>> definitions(
      Class<?> serviceInterface, Object implementation, DeserializationAllowList allowList) {
    return definitions(ServiceDescriptor.of(serviceInterface, allowList), serviceInterface, implementation);
  }

  private static List<ServerMethodDefinition<?, ?>> definitions(
      ServiceDescriptor service, Class<?> serviceInterface, Object implementation) {
    if (!serviceInterface.isInstance(implementation)) {
      throw new IllegalArgumentException(implementation.getClass().getName() + " does not implement " + serviceInterface.getName());
    }
    List<ServerMethodDefinition<?, ?>> definitions = new ArrayList<>();
    addDefinitions(definitions, service, implementation);
    ServiceDescriptor generic = service.genericServed();
    if (generic != null) {
      addDefinitions(definitions, generic, new GenericInvoker(service, implementation));
    }
    return definitions;
  }

  private static void addDefinitions(
      List<ServerMethodDefinition<?, ?>> definitions, ServiceDescriptor service, Object implementation) {
    for (MethodBinding declared : service.methods()) {
      OverloadSet overloads = service.overloads(declared);
      if (overloads != null) {
        if (overloads.overloads().get(0) == declared) {
          definitions.add(overloadedDefinition(service, overloads, implementation));
        }
        continue;
      }
      MethodBinding binding = service.servedForm(declared, implementation.getClass());
      Method method = binding.javaMethod();
      makeAccessible(method);
      ServerCallHandler<Object, Object> handler;
      switch (binding.shape()) {
        case BLOCKING_UNARY:
        case FUTURE_UNARY:
        case SERVER_STREAMING:
          handler = (call, headers) -> new SingleRequestListener(call, binding, null, implementation);
          break;
        case REQUEST_STREAMING:
          handler = (call, headers) -> streamingRequests(call, binding, implementation);
          break;
        default:
          throw new AssertionError(binding.shape());
      }
      definitions.add(new ServerMethodDefinition<>(binding.descriptor(), handler));
    }
  }

  /**
   * The one definition of the overloads of a name: each request names its overload, which the listener
   * calls (in the form the implementation serves) and whose codec writes the answer.
   */
  private static ServerMethodDefinition<?, ?> overloadedDefinition(
      ServiceDescriptor service, OverloadSet overloads, Object implementation) {
    MethodBinding[] served = new MethodBinding[overloads.overloads().size()];
    for (int i = 0; i < served.length; i++) {
      served[i] = service.servedForm(overloads.overloads().get(i), implementation.getClass());
      makeAccessible(served[i].javaMethod());
    }
    ServerCallHandler<Object, Object> handler =
        (call, headers) -> new SingleRequestListener(call, served[0], served, implementation);
    return new ServerMethodDefinition<>(overloads.descriptor(), handler);
  }

  private static void makeAccessible(Method method) {
    try {
      method.setAccessible(true);
    } catch (RuntimeException e) {
      // Public interfaces need no access override; others will fail clearly at call time.
    }
  }

  private static Object invoke(Method method, Object target, Object... args) {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new CompletionException(cause);
    } catch (IllegalAccessException e) {
      throw Status.INTERNAL.withDescription("Cannot call " + method + ": " + e.getMessage()).withCause(e).asException();
    }
  }

  /** Waits for the one request, then calls the method once the client half-closes. */
  private static final class SingleRequestListener extends ServerCall.Listener<Object> {

    private final ServerCall<Object, Object> call;
    /** The method called: for overloads, the one the request names, once it came. */
    private MethodBinding binding;
    /** The overloads the request chooses among, or null for a method of a name of its own. */
    private final MethodBinding[] overloads;
    private final Object implementation;
    private final ResponseObserver<Object> responses;
    private Object request;
    private boolean hasRequest;

    SingleRequestListener(ServerCall<Object, Object> call, MethodBinding binding, MethodBinding[] overloads,
        Object implementation) {
      this.call = call;
      this.binding = binding;
      this.overloads = overloads;
      this.implementation = implementation;
      this.responses = new ResponseObserver<>(call, binding.wrapped());
    }

    @Override
    public void onMessage(Object message) {
      if (hasRequest) {
        // A cardinality violation: UNIMPLEMENTED, as gRPC and Connect servers answer it.
        call.close(Status.UNIMPLEMENTED.withDescription(
            "Too many requests: " + binding.descriptor().type() + " method takes one"), new Metadata());
        return;
      }
      Object arguments = message;
      if (overloads != null) {
        if (!(message instanceof OverloadedArguments.Chosen chosen)) {
          call.close(Status.INTERNAL.withDescription("A request of an overloaded method names no overload: "
              + (message == null ? "null" : message.getClass().getName())), new Metadata());
          return;
        }
        binding = overloads[chosen.overload()];
        responses.answerAs(binding.wrapped());
        arguments = chosen.arguments();
      }
      request = WrappedMethod.valueOf(arguments);
      responses.answerIn(WrappedMethod.serializationOf(arguments));
      hasRequest = true;
    }

    @Override
    public void onHalfClose() {
      if (!hasRequest) {
        call.close(Status.UNIMPLEMENTED.withDescription(
            "Half-closed without a request: " + binding.descriptor().type() + " method takes one"), new Metadata());
        return;
      }
      Method method = binding.javaMethod();
      WrappedMethod wrapped = binding.wrapped();
      if (wrapped != null && wrapped.isUnary()) {
        invokeWrapped(method, wrapped, request == null ? new Object[0] : (Object[]) request);
        return;
      }
      switch (binding.shape()) {
        case BLOCKING_UNARY:
          Object result = invoke(method, implementation, request);
          if (result == null) {
            throw Status.INTERNAL.withDescription(method.getName() + " returned null").asException();
          }
          responses.onNext(result);
          responses.onCompleted();
          break;
        case FUTURE_UNARY:
          CompletableFuture<?> future = (CompletableFuture<?>) invoke(method, implementation, request);
          if (future == null) {
            throw Status.INTERNAL.withDescription(method.getName() + " returned a null future").asException();
          }
          future.whenComplete((value, error) -> {
            if (error != null) {
              responses.onError(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            } else if (value == null) {
              responses.onError(Status.INTERNAL.withDescription(method.getName() + " completed with null").asException());
            } else {
              responses.onNext(value);
              responses.onCompleted();
            }
          });
          break;
        case SERVER_STREAMING:
          invoke(method, implementation, request, responses);
          break;
        default:
          throw new AssertionError(binding.shape());
      }
    }

    /**
     * A unary method with plain Java types: the arguments are spread, null results are results, and
     * an exception the method throws goes back as the response, marked by the exception-code header.
     */
    private void invokeWrapped(Method method, WrappedMethod wrapped, Object[] arguments) {
      Object outcome;
      try {
        outcome = method.invoke(implementation, arguments);
      } catch (InvocationTargetException e) {
        respondThrown(wrapped, e.getCause());
        return;
      } catch (IllegalAccessException e) {
        throw Status.INTERNAL.withDescription("Cannot call " + method + ": " + e.getMessage()).withCause(e).asException();
      }
      if (binding.shape() != CallShape.FUTURE_UNARY) {
        responses.onNext(outcome);
        responses.onCompleted();
        return;
      }
      if (outcome == null) {
        throw Status.INTERNAL.withDescription(method.getName() + " returned a null future").asException();
      }
      ((CompletableFuture<?>) outcome).whenComplete((value, error) -> {
        if (error != null) {
          respondThrown(wrapped, error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
        } else {
          responses.onNext(value);
          responses.onCompleted();
        }
      });
    }

    private void respondThrown(WrappedMethod wrapped, Throwable thrown) {
      if (wrapped.travels(thrown) && "json".equals(call.method().responseCodec().subtype())) {
        // A JSON caller (Connect unary, curl) reads a success as the result: the exception is an error,
        // its class and message in the description.
        String message = thrown.getMessage();
        responses.onError(Status.UNKNOWN.withDescription(
            thrown.getClass().getName() + (message == null ? "" : ": " + message)).withCause(thrown).asException());
        return;
      }
      if (wrapped.travels(thrown)) {
        Metadata headers = new Metadata().put(WrappedMethod.EXCEPTION_CODE_HEADER, WrappedMethod.EXCEPTION_CODE);
        responses.sendThrown(headers, thrown);
      } else {
        responses.onError(thrown);
      }
    }

    @Override
    public void onCancel() {
      responses.cancelled();
    }

    @Override
    public void onReady() {
      responses.ready();
    }
  }

  @SuppressWarnings("unchecked")
  private static ServerCall.Listener<Object> streamingRequests(
      ServerCall<Object, Object> call, MethodBinding binding, Object implementation) {
    Method method = binding.javaMethod();
    ResponseObserver<Object> responses = new ResponseObserver<>(call, binding.wrapped());
    StreamObserver<Object> requests = (StreamObserver<Object>) invoke(method, implementation, responses);
    if (requests == null) {
      throw Status.INTERNAL.withDescription(method.getName() + " returned no request observer").asException();
    }
    return new ServerCall.Listener<>() {
      private boolean halfClosed;

      @Override
      public void onMessage(Object message) {
        responses.answerIn(WrappedMethod.serializationOf(message));
        requests.onNext(WrappedMethod.valueOf(message));
        call.request(1);
      }

      @Override
      public void onHalfClose() {
        halfClosed = true;
        requests.onCompleted();
      }

      @Override
      public void onCancel() {
        responses.cancelled();
        if (!halfClosed) {
          requests.onError(Status.CANCELLED.withDescription("Call cancelled by the client").asException());
        }
      }

      @Override
      public void onReady() {
        responses.ready();
      }
    };
  }

  /** The response side a service method writes to. */
  private static final class ResponseObserver<R> implements ServerCallStreamObserver<R> {

    private final ServerCall<?, R> call;
    /**
     * The method's plain Java codecs, or null for a protobuf method, whose responses go as they are; for
     * overloads, the chosen one's, set with the request before the method is called.
     */
    private WrappedMethod wrapped;
    /**
     * The serialization the caller's requests came in, which responses are written in; null until a request
     * names one (responses then go in the method's own). Set by the call's executor, read by any thread.
     */
    private volatile ObjectSerialization answerIn;
    private boolean headersSent;
    private boolean completed;
    private volatile boolean cancelled;
    private volatile Runnable onReadyHandler;
    private volatile Runnable onCancelHandler;

    ResponseObserver(ServerCall<?, R> call, WrappedMethod wrapped) {
      this.call = call;
      this.wrapped = wrapped;
    }

    /** Answers as {@code overload}'s responses: the one of an {@link OverloadSet} a request chose. */
    void answerAs(WrappedMethod overload) {
      wrapped = overload;
    }

    /** Answers in {@code serialization} from now on, unless it is null (a request that names none). */
    void answerIn(ObjectSerialization serialization) {
      if (serialization != null && serialization != answerIn) {
        answerIn = serialization;
      }
    }

    void cancelled() {
      cancelled = true;
      Runnable handler = onCancelHandler;
      if (handler != null) {
        handler.run();
      }
    }

    void ready() {
      Runnable handler = onReadyHandler;
      if (handler != null) {
        handler.run();
      }
    }

    @Override
    public void onNext(R value) {
      if (isCancelled()) {
        if (onCancelHandler == null) {
          throw Status.CANCELLED.withDescription("Call already cancelled").asException();
        }
        return;
      }
      if (completed) {
        throw new IllegalStateException("onNext after onCompleted or onError");
      }
      if (!headersSent) {
        headersSent = true;
        call.sendHeaders(new Metadata());
      }
      call.sendMessage(wrapped == null ? value : reply(wrapped.answer(value, answerIn)));
    }

    @SuppressWarnings("unchecked")
    private R reply(Object reply) {
      return (R) reply;
    }

    /** Ends the call with {@code thrown}, an exception the service threw, as its one response. */
    void sendThrown(Metadata headers, Throwable thrown) {
      if (completed || isCancelled()) {
        return;
      }
      completed = true;
      headersSent = true;
      call.sendHeaders(headers);
      call.sendMessage(reply(wrapped.answerThrown(thrown, answerIn)));
      call.close(Status.OK, new Metadata());
    }

    @Override
    public void onError(Throwable t) {
      if (completed) {
        return;
      }
      completed = true;
      Metadata trailers = t instanceof StatusException ? ((StatusException) t).trailers() : new Metadata();
      call.close(Status.fromThrowable(t), trailers);
    }

    @Override
    public void onCompleted() {
      if (completed) {
        return;
      }
      completed = true;
      if (!cancelled) {
        call.close(Status.OK, new Metadata());
      }
    }

    @Override
    public boolean isReady() {
      return call.isReady();
    }

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {
      this.onReadyHandler = onReadyHandler;
    }

    @Override
    public void setMessageCompression(boolean enabled) {
      call.setMessageCompression(enabled);
    }

    @Override
    public boolean isCancelled() {
      return cancelled || call.isCancelled();
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {
      this.onCancelHandler = onCancelHandler;
    }

    @Override
    public void setCompression(String encoding) {
      call.setCompression(encoding);
    }
  }
}
