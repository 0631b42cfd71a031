package io.triplerpc;

/** Makes client calls; what an interceptor passes its call on to. Thread-safe. */
public interface ClientCallFactory {

  /** A new call of {@code method}, not yet started. Never blocks. */
  <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options);
}
