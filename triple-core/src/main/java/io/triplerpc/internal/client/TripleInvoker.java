package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientCallStreamObserver;
import io.triplerpc.ClientResponseObserver;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.Ablations;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The invocation handler behind every proxy: finds the method's binding (computed once when the
 * proxy was made) and drives the {@link ClientCall} in the shape its Java signature asks for (blocking,
 * future, observers).
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
    CallOptions options = this.options;
    String hashKey = options.hashKey(args);
    if (hashKey != options.hashKey()) {
      options = options.withHashKey(hashKey); // A key from the arguments, as Dubbo's hash.arguments.
    }
    if (wrapped != null && wrapped.isUnary()) {
      Object[] arguments = args == null ? new Object[0] : args;
      if (binding.shape() == CallShape.BLOCKING_UNARY) {
        return wrapped.decode(blockingUnary(exceptionAwareCalls, descriptor, options, arguments));
      }
      return DecodedFuture.of(futureUnary(exceptionAwareCalls, descriptor, options, arguments), wrapped);
    }
    switch (binding.shape()) {
      case BLOCKING_UNARY:
        return blockingUnary(calls, descriptor, options, args[0]);
      case FUTURE_UNARY:
        return futureUnary(calls, descriptor, options, args[0]);
      case SERVER_STREAMING:
        serverStreaming(
            calls, descriptor, options, args[0], (StreamObserver<Object>) Objects.requireNonNull(args[1], "responseObserver"));
        return null;
      case REQUEST_STREAMING:
        return requestStreaming(
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

  // The call shapes: each drives a ClientCall for one Java method shape.


  /**
   * Responses an observer-driven call asks for ahead of its observer, then one more per response
   * handled. With one at a time, every response was a round trip between the event loop and the
   * callback thread (two thread wake-ups per message); with a few in hand the callback thread takes
   * them in one run. Still bounded: a slow observer stalls the sender through HTTP/2 flow control.
   */
  static final int PREFETCH = 16;

  /**
   * Calls a unary method and waits: the events of the call run on this thread, which thus decodes its
   * own response.
   */
  static <Q, R> R blockingUnary(ClientCallFactory calls, MethodDescriptor<Q, R> method, CallOptions options, Q request) {
    if (Ablations.CALLBACK_POOL) {
      return blockingUnaryThroughCallbackPool(calls, method, options, request);
    }
    ThreadlessExecutor executor = new ThreadlessExecutor();
    ClientCall<Q, R> call = calls.newCall(method, options.withExecutor(executor));
    UnaryResponse<R> response = new UnaryResponse<>(call);
    try {
      call.start(response, new Metadata());
      call.request(2);
      call.sendMessage(request);
      call.halfClose();
      while (!response.closed) {
        executor.waitAndDrain();
      }
    } catch (InterruptedException e) {
      call.cancel("Thread interrupted while waiting for the response", e);
      Thread.currentThread().interrupt();
      executor.abandon();
      throw Status.CANCELLED.withDescription("Thread interrupted").withCause(e).asException();
    } catch (RuntimeException | Error e) {
      call.cancel("Call failed on the client", e);
      throw e;
    }
    return response.valueOrThrow();
  }

  /** What the ThreadlessExecutor replaced: the callback pool completes a future the caller waits on. */
  private static <Q, R> R blockingUnaryThroughCallbackPool(
      ClientCallFactory calls, MethodDescriptor<Q, R> method, CallOptions options, Q request) {
    CompletableFuture<R> future = futureUnary(calls, method, options, request);
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(false);
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription("Thread interrupted").withCause(e).asException();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StatusException) {
        throw (StatusException) e.getCause();
      }
      throw Status.UNKNOWN.withCause(e.getCause()).asException();
    }
  }

  /** Calls a unary method; the future completes on the client's callback executor. */
  static <Q, R> CompletableFuture<R> futureUnary(
      ClientCallFactory calls, MethodDescriptor<Q, R> method, CallOptions options, Q request) {
    ClientCall<Q, R> call = calls.newCall(method, options);
    CallFuture<R> future = new CallFuture<>(call);
    UnaryResponse<R> response = new UnaryResponse<>(call) {
      @Override
      public void onClose(Status status, Metadata trailers) {
        super.onClose(status, trailers);
        if (this.status.isOk()) {
          future.complete(value);
        } else {
          future.completeExceptionally(this.status.asException(this.trailers));
        }
      }
    };
    try {
      call.start(response, new Metadata());
      call.request(2);
      call.sendMessage(request);
      call.halfClose();
    } catch (RuntimeException | Error e) {
      call.cancel("Call failed on the client", e);
      throw e;
    }
    return future;
  }

  /** Calls a server streaming method; responses go to {@code responses}. */
  static <Q, R> void serverStreaming(
      ClientCallFactory calls, MethodDescriptor<Q, R> method, CallOptions options, Q request,
      StreamObserver<R> responses) {
    ClientCall<Q, R> call = calls.newCall(method, options);
    CallToObserver<Q, R> adapter = new CallToObserver<>(call, responses, false);
    adapter.beforeStart();
    try {
      call.start(adapter, new Metadata());
      call.request(PREFETCH);
      call.sendMessage(request);
      call.halfClose();
    } catch (RuntimeException | Error e) {
      call.cancel("Call failed on the client", e);
      throw e;
    }
  }

  /** Calls a client or bidi streaming method; returns the observer the requests go to. */
  static <Q, R> StreamObserver<Q> requestStreaming(
      ClientCallFactory calls, MethodDescriptor<Q, R> method, CallOptions options, StreamObserver<R> responses) {
    ClientCall<Q, R> call = calls.newCall(method, options);
    CallToObserver<Q, R> adapter = new CallToObserver<>(call, responses, method.type().serverSendsOneMessage());
    adapter.beforeStart();
    call.start(adapter, new Metadata());
    call.request(PREFETCH);
    return adapter;
  }

  /**
   * How a call whose server sends one message ends when it sends none or more: UNIMPLEMENTED, a
   * cardinality violation, as gRPC's and Connect's clients see it (the Connect conformance suite checks).
   */
  private static final Status NO_RESPONSE =
      Status.UNIMPLEMENTED.withDescription("Server closed the call without a response; it must send one");
  private static final Status TOO_MANY_RESPONSES =
      Status.UNIMPLEMENTED.withDescription("Server sent more than one response; the call takes one");

  /** Collects the one response of a unary call and checks there is exactly one. */
  private static class UnaryResponse<R> extends ClientCall.Listener<R> {

    private final ClientCall<?, R> call;
    R value;
    boolean hasValue;
    Status status;
    Metadata trailers;
    boolean closed;

    UnaryResponse(ClientCall<?, R> call) {
      this.call = call;
    }

    /** A second response, once one came: the call is cancelled and ends with this instead. */
    private Status violation;

    @Override
    public void onMessage(R message) {
      if (hasValue) {
        violation = TOO_MANY_RESPONSES;
        call.cancel(TOO_MANY_RESPONSES.description(), null);
        return;
      }
      value = message;
      hasValue = true;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (violation != null) {
        status = violation;
      } else if (status.isOk() && !hasValue) {
        status = NO_RESPONSE;
      }
      this.status = status;
      this.trailers = trailers;
      this.closed = true;
    }

    R valueOrThrow() {
      if (status.isOk()) {
        return value;
      }
      throw new StatusException(status, trailers);
    }
  }

  /** A future that cancels its call when cancelled. */
  private static final class CallFuture<R> extends CompletableFuture<R> {

    private final ClientCall<?, R> call;

    CallFuture(ClientCall<?, R> call) {
      this.call = call;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        call.cancel("Future cancelled", null);
      }
      return cancelled;
    }
  }

  /**
   * The future of a plain Java method: its call's response decoded. Completes as {@code thenApply} on the
   * call's future would (a failure wrapped in a {@link CompletionException}), but a cancel reaches the
   * call, which a dependent stage's cancel does not: the server sees the call cancelled at once, not at
   * its deadline.
   */
  private static final class DecodedFuture extends CompletableFuture<Object> {

    private final CompletableFuture<Object> call;

    private DecodedFuture(CompletableFuture<Object> call) {
      this.call = call;
    }

    static DecodedFuture of(CompletableFuture<Object> call, WrappedMethod wrapped) {
      DecodedFuture decoded = new DecodedFuture(call);
      call.whenComplete((response, error) -> {
        if (error != null) {
          decoded.completeExceptionally(error instanceof CompletionException ? error : new CompletionException(error));
          return;
        }
        try {
          decoded.complete(wrapped.decode(response));
        } catch (Throwable t) {
          decoded.completeExceptionally(t instanceof CompletionException ? t : new CompletionException(t));
        }
      });
      return decoded;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        call.cancel(mayInterruptIfRunning);
      }
      return cancelled;
    }
  }

  /**
   * Adapts a call to observers both ways: response events go to the user's observer, and values sent
   * on this observer go out as requests. {@link #PREFETCH} responses are requested at start, then one more
   * after each is handled, so a slow observer holds back its own stream only.
   */
  private static final class CallToObserver<Q, R> extends ClientCall.Listener<R>
      implements ClientCallStreamObserver<Q> {

    private final ClientCall<Q, R> call;
    private final StreamObserver<R> responses;
    /** Whether the server sends one message (client streaming): it is held until the close checks that. */
    private final boolean oneResponse;
    private volatile Runnable onReadyHandler;
    private boolean completed;
    // The listener's, for a call with one response.
    private R response;
    private boolean hasResponse;
    private Status violation;

    CallToObserver(ClientCall<Q, R> call, StreamObserver<R> responses, boolean oneResponse) {
      this.call = call;
      this.responses = responses;
      this.oneResponse = oneResponse;
    }

    @SuppressWarnings("unchecked")
    void beforeStart() {
      if (responses instanceof ClientResponseObserver) {
        ((ClientResponseObserver<Q, R>) responses).beforeStart(this);
      }
    }

    // Response side.

    @Override
    public void onMessage(R message) {
      if (!oneResponse) {
        responses.onNext(message);
        call.request(1);
        return;
      }
      if (hasResponse) {
        violation = TOO_MANY_RESPONSES;
        call.cancel(TOO_MANY_RESPONSES.description(), null);
        return;
      }
      response = message;
      hasResponse = true;
      call.request(1);
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (violation != null) {
        status = violation;
      } else if (oneResponse && status.isOk() && !hasResponse) {
        status = NO_RESPONSE;
      }
      if (status.isOk()) {
        if (hasResponse) {
          responses.onNext(response);
        }
        responses.onCompleted();
      } else {
        responses.onError(new StatusException(status, trailers));
      }
    }

    @Override
    public void onReady() {
      Runnable handler = onReadyHandler;
      if (handler != null) {
        handler.run();
      }
    }

    // Request side.

    @Override
    public void onNext(Q value) {
      if (completed) {
        throw new IllegalStateException("onNext after onCompleted or onError");
      }
      call.sendMessage(value);
    }

    @Override
    public void onError(Throwable t) {
      if (completed) {
        return;
      }
      completed = true;
      call.cancel("Client sent an error: " + t, t);
    }

    @Override
    public void onCompleted() {
      if (completed) {
        return;
      }
      completed = true;
      call.halfClose();
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
    public void cancel(String message, Throwable cause) {
      call.cancel(message, cause);
    }
  }
}
