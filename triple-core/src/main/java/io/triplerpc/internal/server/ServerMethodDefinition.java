package io.triplerpc.internal.server;

import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerCallHandler;

/**
 * A method a server serves: its descriptor and the head of its handler chain (interceptors included).
 * Immutable.
 */
public record ServerMethodDefinition<Q, R>(MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> handler) {}
