package io.triplerpc.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;
import io.triplerpc.AccessPolicy;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.serialization.MessageCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Routes each new stream to its method by {@code :path}, in a map built once at start (keyed by the
 * same {@link AsciiString} type the HTTP/2 decoder produces, so a lookup builds no string), with the
 * access its callers must pass, resolved from the server's {@link AccessPolicy} at the same time.
 */
public final class ServerDispatcher implements ServerTransportListener {

  private static final String[] CODECS = {"json", "proto"};

  private final Map<AsciiString, ServerMethodDefinition<?, ?>> methods;
  /**
   * Per codec a content type may name, each method that can take it, its descriptor's codecs swapped
   * for that codec's and its handler chain the same as for its own.
   */
  private final Map<String, Map<AsciiString, ServerMethodDefinition<?, ?>>> methodsByCodec;
  /** What each method's callers must pass, by path; methods anyone may call are absent. */
  private final Map<AsciiString, MethodAccess> access;
  private final Executor executor;
  private final int maxInboundMessageSize;

  /**
   * @param policy who may call what, or null to let anyone call anything
   */
  public ServerDispatcher(
      List<ServerMethodDefinition<?, ?>> definitions,
      List<ServerInterceptor> interceptors,
      AccessPolicy policy,
      Executor executor,
      int maxInboundMessageSize) {
    Map<AsciiString, ServerMethodDefinition<?, ?>> map = new HashMap<>();
    Map<String, Map<AsciiString, ServerMethodDefinition<?, ?>>> byCodec = new HashMap<>();
    Map<AsciiString, MethodAccess> accessByPath = new HashMap<>();
    for (ServerMethodDefinition<?, ?> definition : definitions) {
      ServerMethodDefinition<?, ?> intercepted = intercept(definition, interceptors);
      AsciiString path = AsciiString.of(definition.method().path());
      if (map.put(path, intercepted) != null) {
        throw new IllegalArgumentException("Two services serve " + path);
      }
      MethodAccess methodAccess = MethodAccess.of(policy, definition.method());
      if (methodAccess != null) {
        accessByPath.put(path, methodAccess);
      }
      for (String codec : CODECS) {
        ServerMethodDefinition<?, ?> swapped = withCodecsFor(intercepted, codec);
        if (swapped != null) {
          byCodec.computeIfAbsent(codec, s -> new HashMap<>()).put(path, swapped);
        }
      }
    }
    this.methods = map;
    this.methodsByCodec = byCodec;
    this.access = accessByPath;
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

  /** The definition with codecs of {@code subtype}, or null if its types have none. */
  private static <Q, R> ServerMethodDefinition<Q, R> withCodecsFor(
      ServerMethodDefinition<Q, R> definition, String subtype) {
    MethodDescriptor<Q, R> method = definition.method();
    MessageCodec<Q> requestCodec = method.requestCodec().withSubtype(subtype);
    MessageCodec<R> responseCodec = method.responseCodec().withSubtype(subtype);
    if (requestCodec == null || responseCodec == null) {
      return null;
    }
    MethodDescriptor<Q, R> swapped = MethodDescriptor.of(
        method.serviceName(), method.methodName(), method.type(), requestCodec, responseCodec, method.isIdempotent());
    return new ServerMethodDefinition<>(swapped, definition.handler());
  }

  @Override
  public ServerStreamListener streamCreated(ServerStream stream, InboundRequest request) {
    AsciiString path = AsciiString.of(request.path());
    ServerMethodDefinition<?, ?> definition = methods.get(path);
    if (definition == null) {
      stream.closeRefused(Status.UNIMPLEMENTED.withDescription("Method not found: " + methodName(request.path())), 404);
      return IgnoringListener.INSTANCE;
    }
    if (request.httpGet() && !definition.method().isIdempotent()) {
      stream.closeRefused(Status.UNIMPLEMENTED.withDescription(definition.method().fullMethodName()
          + " is not idempotent: call it with POST (GET serves methods marked idempotent)"), 405);
      return IgnoringListener.INSTANCE;
    }
    MethodAccess methodAccess = access.isEmpty() ? null : access.get(path);
    if (request.unframed() || request.codec() != null) {
      return startInCodec(definition, methodAccess, stream, request);
    }
    return start(definition, methodAccess, stream, request);
  }

  /**
   * A call whose content type names a codec, or whose body is one unframed message: the same handler
   * chain and executor, with that codec's descriptor.
   */
  private ServerStreamListener startInCodec(
      ServerMethodDefinition<?, ?> ownDefinition, MethodAccess methodAccess, ServerStream stream,
      InboundRequest request) {
    MethodType type = ownDefinition.method().type();
    if (request.unframed() && (!type.clientSendsOneMessage() || !type.serverSendsOneMessage())) {
      return reject(stream, Status.FAILED_PRECONDITION.withDescription(
          ownDefinition.method().fullMethodName() + " is a " + type
              + " method: call it with a streaming protocol (gRPC, gRPC-Web, or Connect streaming with "
              + "application/connect+json or application/connect+proto)"));
    }
    if (request.codec() == null) {
      return start(ownDefinition, methodAccess, stream, request);
    }
    Map<AsciiString, ServerMethodDefinition<?, ?>> byPath = methodsByCodec.get(request.codec());
    ServerMethodDefinition<?, ?> definition = byPath == null ? null : byPath.get(AsciiString.of(request.path()));
    if (definition == null) {
      return reject(stream, Status.INVALID_ARGUMENT.withDescription(
          ownDefinition.method().fullMethodName() + " does not take " + request.codec() + " messages"));
    }
    return start(definition, methodAccess, stream, request);
  }

  private static ServerStreamListener reject(ServerStream stream, Status status) {
    stream.close(status, new Metadata());
    return IgnoringListener.INSTANCE;
  }

  private static String methodName(CharSequence path) {
    return path.length() > 0 && path.charAt(0) == '/' ? path.subSequence(1, path.length()).toString() : path.toString();
  }

  private <Q, R> ServerStreamListener start(
      ServerMethodDefinition<Q, R> definition, MethodAccess methodAccess, ServerStream stream, InboundRequest request) {
    ServerCallImpl<Q, R> call =
        new ServerCallImpl<>(stream, definition.method(), request, executor, maxInboundMessageSize);
    call.start(definition.handler(), methodAccess);
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
