package io.triplerpc.internal.client;

import io.triplerpc.CallCredentials;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.GenericService;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleService;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.descriptor.GenericInvocation;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.ClusterFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/** The {@link TripleClient}: one address's transport, or a cluster of them. */
final class TripleClientImpl extends TripleClient {

  /** The target a cluster client's calls are observed under: its servers are the attempts'. */
  static final String CLUSTER_TARGET = "cluster";


  private final ClientTransportFactory transportFactory;
  /** The one address's connection, or null when a cluster picks the servers. */
  private final TransportConnection connection;
  private final Cluster cluster;
  private final CallOptions defaultOptions;
  private final List<ClientInterceptor> interceptors;
  /** Credentials of calls whose options bring none, or null. */
  private final CallCredentials credentials;
  private final ClientCallFactory base;
  /** The scheduler of a cluster client's waits and retries, or null. */
  private final ScheduledExecutorService ownedScheduler;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The classes besides those of a service's signatures its responses may hold; see the builder. */
  private final DeserializationAllowList deserializationAllowList;

  /**
   * @param address the one server, or null with a cluster
   * @param callbackExecutor where callbacks run, or null for a pool of the client's own
   */
  TripleClientImpl(InetSocketAddress address, ClusterFactory clusterFactory, ClientTransportOptions options,
      Executor callbackExecutor, CallOptions defaultOptions, List<ClientInterceptor> interceptors,
      CallCredentials credentials, DeserializationAllowList deserializationAllowList, MethodSettings methods,
      CallObservers observers) {
    this.transportFactory = loadTransportFactory();
    transportFactory.check(options);
    this.deserializationAllowList = deserializationAllowList;
    Executor callbacks = callbackExecutor != null ? callbackExecutor : ClientCallFactories.newCallbackExecutor();
    int maxInbound = options.limits().maxInboundMessageSize();
    this.defaultOptions = defaultOptions;
    this.interceptors = List.copyOf(interceptors);
    this.credentials = credentials;
    if (clusterFactory == null) {
      ClientTransport transport = transportFactory.newTransport(address, options);
      this.connection = new TransportConnection(address, transport, callbacks, maxInbound, observers);
      this.cluster = null;
      this.ownedScheduler = null;
      RetriableCalls calls = new RetriableCalls((method, callOptions) -> connection, TransportConnection::attempt,
          methods, transport.scheduler(), transport::nanoTime, callbacks);
      this.base = inCodec(observed(new PropagatingCalls(withTimeouts(calls, methods)), observers,
          ClientCallFactories.hostAndPort(address)), options);
    } else {
      this.connection = null;
      this.cluster = clusterFactory.newCluster(server -> new TransportConnection(
          server, transportFactory.newTransport(server, options), callbacks, maxInbound, observers));
      this.ownedScheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "triple-retry");
        thread.setDaemon(true);
        return thread;
      });
      RetriableCalls calls = new RetriableCalls(cluster::picker, TransportConnection::attempt, methods, ownedScheduler,
          System::nanoTime, callbacks);
      this.base = inCodec(observed(new PropagatingCalls(withTimeouts(calls, methods)), observers, CLUSTER_TARGET),
          options);
    }
  }

  /** {@code calls} with their messages in the client's codec, when it is not the descriptors' own protobuf. */
  private static ClientCallFactory inCodec(ClientCallFactory calls, ClientTransportOptions options) {
    return ClientTransportOptions.JSON.equals(options.codec()) ? ClientCallFactories.withCodec(calls, options.codec())
        : calls;
  }

  /** {@code calls}, seen whole by {@code observers} if there are any. */
  private static ClientCallFactory observed(ClientCallFactory calls, CallObservers observers, String target) {
    return observers == null ? calls : ClientCallFactories.observed(calls, observers, target);
  }

  /**
   * {@code calls} under the deadline of their method configs (above the attempt loop, so that it covers
   * every attempt), where some config sets one.
   */
  private static ClientCallFactory withTimeouts(ClientCallFactory calls, MethodSettings methods) {
    return methods.timeouts() ? new MethodTimeouts(calls, methods.configs()) : calls;
  }

  private static ClientTransportFactory loadTransportFactory() {
    return ServiceLoader.load(ClientTransportFactory.class, TripleClientImpl.class.getClassLoader())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(
            "No Triple client transport on the class path: add io.triplerpc:triple-transport-netty"));
  }

  @Override
  public <T> T proxy(Class<T> serviceInterface) {
    return proxy(serviceInterface, defaultOptions);
  }

  @Override
  public <T> T proxy(Class<T> serviceInterface, CallOptions options) {
    Objects.requireNonNull(serviceInterface, "serviceInterface");
    Objects.requireNonNull(options, "options");
    CallOptions resolved = withCredentials(withExport(serviceInterface, options));
    if (cluster != null) {
      cluster.prepare(ServiceDescriptor.of(serviceInterface).serviceName(), resolved);
    }
    return TripleInvoker.newProxy(serviceInterface, chain(resolved), resolved, deserializationAllowList);
  }

  @Override
  public GenericService generic(String serviceName, CallOptions options) {
    Objects.requireNonNull(serviceName, "serviceName");
    CallOptions resolved = withCredentials(Objects.requireNonNull(options, "options"));
    if (cluster != null) {
      cluster.prepare(serviceName, resolved);
    }
    ServiceDescriptor descriptor = ServiceDescriptor.genericCalls(serviceName, "", deserializationAllowList);
    GenericInvocation.Calls calls =
        TripleInvoker.newProxy(GenericInvocation.Calls.class, descriptor, chain(resolved), resolved);
    return new GenericService() {
      @Override
      public Object invoke(String method, String[] parameterTypes, Object... arguments) throws Exception {
        return calls.$invoke(method, parameterTypes, arguments);
      }

      @Override
      public CompletableFuture<Object> invokeAsync(String method, String[] parameterTypes, Object... arguments) {
        return calls.$invokeAsync(method, parameterTypes, arguments);
      }

      @Override
      public String toString() {
        return "GenericService{" + serviceName + '}';
      }
    };
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    CallOptions resolved = withCredentials(Objects.requireNonNull(options, "options"));
    return chain(resolved).newCall(method, resolved);
  }

  /** The options with the version and group of the interface's annotation where they set none. */
  private static CallOptions withExport(Class<?> serviceInterface, CallOptions options) {
    TripleService annotation = serviceInterface.getAnnotation(TripleService.class);
    if (annotation == null) {
      return options;
    }
    CallOptions named = options;
    if (named.serviceVersion() == null && !annotation.version().isEmpty()) {
      named = named.withServiceVersion(annotation.version());
    }
    if (named.serviceGroup() == null && !annotation.group().isEmpty()) {
      named = named.withServiceGroup(annotation.group());
    }
    return named;
  }

  private CallOptions withCredentials(CallOptions options) {
    return credentials != null && options.callCredentials() == null ? options.withCallCredentials(credentials) : options;
  }

  private ClientCallFactory chain(CallOptions options) {
    ClientCallFactory calls = ClientCallFactories.intercept(base, options.interceptors());
    return ClientCallFactories.intercept(calls, interceptors);
  }

  /** The connection of a client of one address, or null for a cluster's client. */
  TransportConnection connection() {
    return connection;
  }

  @Override
  public boolean isConnectionActive() {
    return connection != null ? connection.isActive() : cluster.isActive();
  }

  @Override
  public WriteStats writeStats() {
    return connection != null ? connection.writeStats() : cluster.writeStats();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (connection != null) {
      connection.close();
    } else {
      cluster.close();
    }
    if (ownedScheduler != null) {
      ownedScheduler.shutdownNow();
    }
    transportFactory.close();
    // The owned callback pool is not shut down here: calls still in flight get their last events
    // (UNAVAILABLE) through it as the connections close. Its threads, watchdog too, end after 60 s idle.
  }
}
