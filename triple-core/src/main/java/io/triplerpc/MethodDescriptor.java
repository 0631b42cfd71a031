package io.triplerpc;

import io.netty.util.AsciiString;
import io.triplerpc.serialization.MessageCodec;
import java.util.Objects;

/**
 * Describes one RPC method: its names, its kind, and how its messages are serialized. Built once
 * when a service is exported or referred, never per call. Immutable.
 *
 * @param <Q> the request type
 * @param <R> the response type
 */
public final class MethodDescriptor<Q, R> {

  private final String serviceName;
  private final String methodName;
  private final String fullMethodName;
  private final AsciiString path;
  private final MethodType type;
  private final MessageCodec<Q> requestCodec;
  private final MessageCodec<R> responseCodec;
  private final boolean idempotent;

  private MethodDescriptor(
      String serviceName,
      String methodName,
      MethodType type,
      MessageCodec<Q> requestCodec,
      MessageCodec<R> responseCodec,
      boolean idempotent) {
    this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
    this.methodName = Objects.requireNonNull(methodName, "methodName");
    this.fullMethodName = serviceName + '/' + methodName;
    this.path = AsciiString.cached('/' + fullMethodName);
    this.type = Objects.requireNonNull(type, "type");
    this.requestCodec = Objects.requireNonNull(requestCodec, "requestCodec");
    this.responseCodec = Objects.requireNonNull(responseCodec, "responseCodec");
    this.idempotent = idempotent;
  }

  /** A descriptor for {@code serviceName/methodName} with the given codecs. */
  public static <Q, R> MethodDescriptor<Q, R> of(
      String serviceName,
      String methodName,
      MethodType type,
      MessageCodec<Q> requestCodec,
      MessageCodec<R> responseCodec,
      boolean idempotent) {
    return new MethodDescriptor<>(serviceName, methodName, type, requestCodec, responseCodec, idempotent);
  }

  /** The service name, such as {@code grpc.testing.TestService}. */
  public String serviceName() {
    return serviceName;
  }

  /** The method name, such as {@code UnaryCall}. */
  public String methodName() {
    return methodName;
  }

  /** {@code serviceName/methodName}, as gRPC names a method. */
  public String fullMethodName() {
    return fullMethodName;
  }

  /** The HTTP path, {@code /serviceName/methodName}; computed once. */
  public CharSequence path() {
    return path;
  }

  public MethodType type() {
    return type;
  }

  public MessageCodec<Q> requestCodec() {
    return requestCodec;
  }

  public MessageCodec<R> responseCodec() {
    return responseCodec;
  }

  /** Whether the method may be retried: calling it twice has the effect of calling it once. */
  public boolean isIdempotent() {
    return idempotent;
  }

  @Override
  public String toString() {
    return fullMethodName + " (" + type + ')';
  }
}
