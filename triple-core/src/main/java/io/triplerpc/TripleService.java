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
 * <p>Parameters and results may be protobuf messages or plain Java types (POJOs, records, enums,
 * collections, {@code java.time}, {@code BigDecimal}, null); a unary method with plain Java types may
 * take any number of parameters ({@code R m(A, B)}, {@code void m()}), and the exceptions it declares
 * reach the caller as themselves. See {@link #serialization()}.
 *
 * <p>A unary method may be declared in both forms, {@code R foo(Q)} and {@code CompletableFuture<R> fooAsync(Q)}
 * with the same parameters: they are one RPC method (named by either's {@link TripleMethod#name()}, else
 * {@code foo}), which a client calls blocking or asynchronously as it chooses. Either form or both may be
 * {@code default} methods calling the other: a server serves the form its implementation provides, the
 * asynchronous one when it provides both. Other default methods, and static methods, are not RPC methods.
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

  /**
   * The service version, as Dubbo names exports: a server serves the interface in the export with this
   * version, and a proxy's calls name it ({@code tri-service-version}) and reach only instances serving
   * it; empty for none. See {@link TripleServer.Builder#addService(Class, Object, String, String)}.
   */
  String version() default "";

  /** The service group ({@code tri-service-group}), as {@link #version()} is used; empty for none. */
  String group() default "";

  /**
   * How parameters and results that are not protobuf messages travel, inside the request and response
   * wrapper messages Apache Dubbo 3 Triple uses: {@code "hessian2"} (the default, hessian-lite) or
   * {@code "fastjson2"} (fastjson2's binary JSONB), byte for byte as Dubbo 3.3 writes them, so a Dubbo
   * peer interoperates; or {@code "jackson"} (text JSON through Jackson), which only Triple peers read.
   * Protobuf messages always travel as plain protobuf. hessian2 and jackson come with {@code triple-core};
   * fastjson2 needs {@code io.triplerpc:triple-serialization-fastjson2} on the class path, and without it a
   * server's {@code addService} and a client's {@code proxy} of an interface that names it fail, saying so.
   *
   * <p>This is what a client sends. A server reads requests in any that is installed, whichever the request
   * names, and answers each caller in the serialization it wrote, as Dubbo 3.2+ providers do; a request in
   * fastjson2 to a server without its artifact fails with {@code UNIMPLEMENTED}, naming the artifact.
   */
  String serialization() default "";

  /**
   * The class protoc's Java generator wrote for the {@code .proto} file that declares this service (the
   * file's outer class, whose static {@code getDescriptor()} returns its {@code FileDescriptor}), or
   * {@code void.class} for none. Server reflection then serves that very file (its name, every service
   * it declares, their options) instead of a file it makes up from the methods' messages, even when
   * those are all imported from other files. protoc-gen-triple fills it in.
   */
  Class<?> protoFile() default void.class;
}
