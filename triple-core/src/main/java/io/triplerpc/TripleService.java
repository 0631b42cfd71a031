package io.triplerpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface as a Triple service. Its methods become RPC methods by their shape:
 *
 * <ul>
 *   <li>{@code R m(Q)} and {@code CompletableFuture<R> m(Q)}: unary;
 *   <li>{@code void m(Q, StreamObserver<R>)}: server streaming;
 *   <li>{@code StreamObserver<Q> m(StreamObserver<R>)}: bidi streaming, or client streaming when
 *       annotated {@code @TripleMethod(clientStreaming = true)}.
 * </ul>
 *
 * <p>Default and static methods are not RPC methods.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface TripleService {

  /**
   * The service name on the wire (the first segment of the HTTP path), such as
   * {@code "grpc.testing.TestService"}; empty means the interface's fully qualified name.
   */
  String name() default "";

  /** The service version, for registries; empty for none. */
  String version() default "";

  /** The service group, for registries; empty for none. */
  String group() default "";
}
