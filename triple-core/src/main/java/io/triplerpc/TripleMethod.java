package io.triplerpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Overrides how a method of a {@link TripleService} interface appears on the wire. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface TripleMethod {

  /** The method name on the wire, such as {@code "UnaryCall"}; empty means the Java method name. */
  String name() default "";

  /**
   * For {@code StreamObserver<Q> m(StreamObserver<R>)}: the client streams and the server answers
   * once, instead of both streaming.
   */
  boolean clientStreaming() default false;

  /** Whether calling the method twice has the effect of calling it once, so it may be retried. */
  boolean idempotent() default false;
}
