package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Picker;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One server address's transport: a {@link Connection} for pickers to choose, the attempts of calls
 * on it, and, for a client of this one address, its own picker (every attempt goes here). Thread-safe.
 */
final class TransportConnection implements Connection, Picker, Picker.Pick {

  private final InetSocketAddress address;
  private final ClientTransport transport;
  private final int maxInboundMessageSize;
  /** Who sees each attempt, or null. */
  private final CallObservers observers;
  /** {@link #address} as observers name it. */
  private final String target;
  /** Calls to this address alone, for {@link #newCall}. */
  private final RetriableCalls calls;

  TransportConnection(InetSocketAddress address, ClientTransport transport, Executor callbackExecutor,
      int maxInboundMessageSize, CallObservers observers) {
    this.address = address;
    this.transport = transport;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.observers = observers;
    this.target = ClientCallFactories.hostAndPort(address);
    this.calls = new RetriableCalls((method, options) -> this, TransportConnection::attempt, MethodSettings.NONE,
        transport.scheduler(), transport::nanoTime, callbackExecutor);
  }

  /** The attempt of a call on the connection {@code pick} chose, which a client's connector made. */
  static <Q, R> AttemptCall<Q, R> attempt(Picker.Pick pick, MethodDescriptor<Q, R> method, CallOptions options,
      Executor callExecutor) {
    if (!(pick.connection() instanceof TransportConnection)) {
      throw new IllegalArgumentException("A picker chose " + pick.connection()
          + ", which the client's Connector did not make");
    }
    return ((TransportConnection) pick.connection()).newAttempt(method, options, callExecutor);
  }

  <Q, R> AttemptCall<Q, R> newAttempt(MethodDescriptor<Q, R> method, CallOptions options, Executor callExecutor) {
    return new ClientCallImpl<>(transport, method, options, callExecutor, maxInboundMessageSize, observers, address,
        target);
  }

  ClientTransport transport() {
    return transport;
  }

  /** Calls to this address, with no policy but the transparent retry. */
  RetriableCalls calls() {
    return calls;
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    return calls.newCall(method, options);
  }

  @Override
  public Pick pick(MethodDescriptor<?, ?> method, List<Pick> tried) {
    return this;
  }

  @Override
  public Connection connection() {
    return this;
  }

  @Override
  public String noServerReason() {
    return "No server at " + target;
  }

  @Override
  public String describe() {
    return target;
  }

  @Override
  public InetSocketAddress address() {
    return address;
  }

  @Override
  public boolean isActive() {
    return transport.isActive();
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    transport.onConnectionsChanged(listener);
  }

  @Override
  public WriteStats writeStats() {
    return transport.writeStats();
  }

  @Override
  public void close() {
    transport.shutdown();
  }

  @Override
  public String toString() {
    return "Connection{" + target + '}';
  }
}
