package io.triplerpc.internal.server;

import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerCallHandler;

/**
 * A method a server serves: its descriptor, the head of its handler chain (interceptors included), and
 * the export it belongs to. Immutable.
 *
 * @param version the export's service version ({@code tri-service-version}), empty for none
 * @param group the export's service group ({@code tri-service-group}), empty for none
 */
public record ServerMethodDefinition<Q, R>(
    MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> handler, String version, String group) {

  /** A method of the service's export without version or group. */
  public ServerMethodDefinition(MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> handler) {
    this(method, handler, "", "");
  }

  /** The same method in the export named by {@code version} and {@code group}. */
  public ServerMethodDefinition<Q, R> exportedAs(String version, String group) {
    return new ServerMethodDefinition<>(method, handler, version, group);
  }

  /** This method with another descriptor and handler, in the same export. */
  public <A, B> ServerMethodDefinition<A, B> with(MethodDescriptor<A, B> method, ServerCallHandler<A, B> handler) {
    return new ServerMethodDefinition<>(method, handler, version, group);
  }
}
