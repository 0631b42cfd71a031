package io.triplerpc.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Routes each new stream to its method by {@code :path}, in a map built once at start (keyed by the
 * same {@link AsciiString} type the HTTP/2 decoder produces, so a lookup builds no string).
 */
public final class ServerDispatcher implements ServerTransportListener {

  private final Map<AsciiString, ServerMethodDefinition<?, ?>> methods;
  private final Executor executor;
  private final int maxInboundMessageSize;

  public ServerDispatcher(
      List<ServerMethodDefinition<?, ?>> definitions,
      List<ServerInterceptor> interceptors,
      Executor executor,
      int maxInboundMessageSize) {
    Map<AsciiString, ServerMethodDefinition<?, ?>> map = new HashMap<>();
    for (ServerMethodDefinition<?, ?> definition : definitions) {
      ServerMethodDefinition<?, ?> intercepted = intercept(definition, interceptors);
      AsciiString path = AsciiString.of(definition.method().path());
      if (map.put(path, intercepted) != null) {
        throw new IllegalArgumentException("Two services serve " + path);
      }
    }
    this.methods = map;
    this.executor = executor;
    this.maxInboundMessageSize = maxInboundMessageSize;
  }

  private static <Q, R> ServerMethodDefinition<Q, R> intercept(
      ServerMethodDefinition<Q, R> definition, List<ServerInterceptor> interceptors) {
    ServerCallHandler<Q, R> handler = definition.handler();
    for (int i = interceptors.size() - 1; i >= 0; i--) {
      ServerInterceptor interceptor = interceptors.get(i);
      ServerCallHandler<Q, R> next = handler;
      handler = (call, headers) -> interceptor.interceptCall(call, headers, next);
    }
    return new ServerMethodDefinition<>(definition.method(), handler);
  }

  /** Whether a method is served at {@code path}. */
  public boolean hasMethod(CharSequence path) {
    return methods.containsKey(AsciiString.of(path));
  }

  @Override
  public ServerStreamListener streamCreated(ServerStream stream, InboundRequest request) {
    ServerMethodDefinition<?, ?> definition = methods.get(AsciiString.of(request.path()));
    if (definition == null) {
      CharSequence path = request.path();
      String name = path.length() > 0 && path.charAt(0) == '/' ? path.subSequence(1, path.length()).toString() : path.toString();
      stream.close(Status.UNIMPLEMENTED.withDescription("Method not found: " + name), new Metadata());
      return IgnoringListener.INSTANCE;
    }
    return start(definition, stream, request);
  }

  private <Q, R> ServerStreamListener start(
      ServerMethodDefinition<Q, R> definition, ServerStream stream, InboundRequest request) {
    ServerCallImpl<Q, R> call =
        new ServerCallImpl<>(stream, definition.method(), request, executor, maxInboundMessageSize);
    call.start(definition.handler());
    return call;
  }

  /** The listener of a stream that was closed at once: releases what still arrives. */
  private enum IgnoringListener implements ServerStreamListener {
    INSTANCE;

    @Override
    public void onMessage(ByteBuf payload, boolean compressed) {
      payload.release();
    }

    @Override
    public void onHalfClose() {}

    @Override
    public void onCancel(Status status) {}

    @Override
    public void onComplete() {}

    @Override
    public void onReady() {}
  }
}
