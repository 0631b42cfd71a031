package io.triplerpc.serialization.wrapper;

import static java.util.Objects.requireNonNull;

import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectSerialization;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The codecs of one service method whose parameters and result are plain Java types: its argument list,
 * its result and the exceptions it throws travel in the wrapper messages Apache Dubbo 3's Triple uses for
 * non-protobuf interfaces, so a Dubbo peer calls and serves the same method.
 *
 * <p>Every codec reads each installed object serialization (hessian2, jackson, fastjson2 where its artifact
 * is on the class path), whichever the wrapper's {@code serializeType} names, and writes the method's own unless told another: a server reads
 * requests with {@link WrapperCodec#readInSerialization} and answers in the caller's serialization, as
 * Dubbo 3.2+ providers do.
 *
 * <p>On the wire (Dubbo 3.3, {@code dubbo-rpc-triple}'s {@code ReflectionPackableMethod} and
 * {@code triple_wrapper.proto}):
 * <ul>
 *   <li>the request is a {@code TripleRequestWrapper}: {@code serializeType} (1), each argument serialized
 *       on its own as {@code args} (2), and {@code Class.getName()} of each declared parameter type as
 *       {@code argTypes} (3); the call's content type is {@code application/grpc+proto};
 *   <li>the response is a {@code TripleResponseWrapper}: {@code serializeType} (1), the serialized result
 *       as {@code data} (2), and {@code Class.getName()} of the declared result type as {@code type} (3);
 *   <li>an exception the service throws is a response too: the wrapper's {@code data} is the serialized
 *       exception, the response headers carry {@value #EXCEPTION_CODE_HEADER} (non-zero, normally
 *       {@value #BUSINESS_EXCEPTION_CODE}) and the trailers {@code grpc-status: 0}. Dubbo does this for the
 *       exceptions the method declares ({@link #declares}); others end the call with a gRPC status.
 * </ul>
 *
 * <p>Built once per method when a service is exported or referred; the codecs are immutable and
 * thread-safe. Generic parameter and result types keep their type arguments, resolved against the service
 * interface, so {@code List<User>} reads {@code User}s.
 */
public final class WrapperCodecs {

  /**
   * The response header that marks a response whose message is an exception thrown by the service, not its
   * result; any value but {@code "0"} means so.
   */
  public static final String EXCEPTION_CODE_HEADER = "tri-exception-code";

  /** The {@value #EXCEPTION_CODE_HEADER} value for an exception the service threw (Dubbo's BIZ_EXCEPTION). */
  public static final int BUSINESS_EXCEPTION_CODE = 3;

  /** The media subtype of the wrappers, which are protobuf messages: Dubbo sends {@code application/grpc+proto}. */
  public static final String SUBTYPE = "proto";

  private final Method method;
  private final ObjectSerialization serialization;
  /** The result and a thrown exception as JSON bodies (Connect unary, curl). */
  private final MessageCodec<Object> jsonResult;
  /** The result as JSON with no {@code "@class"} in it, for REST answers that any JSON client reads. */
  private final MessageCodec<Object> plainJsonResult;
  private final MessageCodec<Throwable> jsonException;
  private final WrapperCodec<Object[]> arguments;
  private final WrapperCodec<Object> result;
  private final WrapperCodec<Throwable> exception;

  private WrapperCodecs(Method method, ObjectSerialization serialization, WrapperCodec<Object[]> arguments,
      WrapperCodec<Object> result, WrapperCodec<Throwable> exception, MessageCodec<Object> jsonResult,
      MessageCodec<Object> plainJsonResult, MessageCodec<Throwable> jsonException) {
    this.method = method;
    this.serialization = serialization;
    this.jsonResult = jsonResult;
    this.plainJsonResult = plainJsonResult;
    this.jsonException = jsonException;
    this.arguments = arguments;
    this.result = result;
    this.exception = exception;
  }

  /** The codecs of unary {@code method}, its types seen from the interface that declares it. */
  public static WrapperCodecs forMethod(Method method, ObjectSerialization serialization) {
    return forMethod(method.getDeclaringClass(), method, serialization);
  }

  /**
   * The codecs of unary {@code method} of {@code service}, allowing what this one method's signature
   * reaches ({@link #declaredTypes}); a service's methods are built with
   * {@link #forMethod(Class, Method, ObjectSerialization, AllowedClasses)} and the whole service's set.
   *
   * @throws IllegalArgumentException if {@code service} does not have {@code method}
   */
  public static WrapperCodecs forMethod(Class<?> service, Method method, ObjectSerialization serialization) {
    String where = service.getName() + "." + method.getName();
    return forMethod(service, method, serialization, AllowedClasses.forTypes("method " + where,
        declaredTypes(service, method), service.getClassLoader(), DeserializationAllowList.create()));
  }

  /**
   * The codecs of unary {@code method} of {@code service}: {@code R m(A, B, ...)} or
   * {@code CompletableFuture<R> m(A, B, ...)} (the result is then {@code R}). They write
   * {@code serialization} unless told another, and read every installed one. Type variables of generic
   * supertypes of {@code service} are resolved, so a {@code UserRepository extends Repository<User>} reads
   * {@code User}s; classes named on the wire are loaded by {@code service}'s class loader, and only those
   * {@code allowed} allows are instantiated.
   *
   * @throws IllegalArgumentException if {@code service} does not have {@code method}
   */
  public static WrapperCodecs forMethod(
      Class<?> service, Method method, ObjectSerialization serialization, AllowedClasses allowed) {
    requireNonNull(service, "service");
    requireNonNull(method, "method");
    requireNonNull(serialization, "serialization");
    requireNonNull(allowed, "allowed");
    if (!method.getDeclaringClass().isAssignableFrom(service)) {
      throw new IllegalArgumentException(service.getName() + " has no method " + method);
    }
    String where = service.getName() + "." + method.getName();
    List<Type> parameters = new ArrayList<>();
    for (Type parameter : method.getGenericParameterTypes()) {
      parameters.add(Types.resolve(parameter, service));
    }
    Type resultType = resultType(service, method);
    ClassLoader loader = service.getClassLoader();
    Accepted accepted = Accepted.writing(serialization);
    return new WrapperCodecs(method, serialization,
        new RequestWrapperCodec(where, accepted, loader, parameters, allowed),
        new ResponseWrapperCodec<>(where, accepted, loader, resultType, Object.class, resultType, allowed),
        new ResponseWrapperCodec<>(where, accepted, loader, resultType, Throwable.class, Throwable.class, allowed),
        new JsonValue<>(where, loader, isVoid(resultType) ? Object.class : resultType, Object.class, allowed, false),
        new JsonValue<>(where, loader, isVoid(resultType) ? Object.class : resultType, Object.class, allowed, true),
        new JsonValue<>(where, loader, Throwable.class, Throwable.class, allowed, false));
  }

  /**
   * The types whose values {@code method} of {@code service} reads or writes as a unary method: its
   * parameter types, its result type ({@code R} of a {@code CompletableFuture<R>}) and the exception types
   * it declares, type variables resolved against {@code service}.
   */
  public static List<Type> declaredTypes(Class<?> service, Method method) {
    List<Type> types = new ArrayList<>();
    for (Type parameter : method.getGenericParameterTypes()) {
      types.add(Types.resolve(parameter, service));
    }
    types.add(resultType(service, method));
    for (Type exception : method.getGenericExceptionTypes()) {
      types.add(Types.resolve(exception, service));
    }
    return types;
  }

  private static Type resultType(Class<?> service, Method method) {
    Type resultType = Types.resolve(method.getGenericReturnType(), service);
    if (CompletionStage.class.isAssignableFrom(Types.rawClass(resultType))) {
      resultType = resultType instanceof ParameterizedType
          ? ((ParameterizedType) resultType).getActualTypeArguments()[0]
          : Object.class;
    }
    return resultType;
  }

  /**
   * A request codec for an explicit list of parameter types, for call shapes {@link #forMethod} does not
   * take apart: each message of a streaming call is a wrapper of one argument, as in Dubbo. It writes
   * {@code serialization} unless told another, reads every installed one, and instantiates only what
   * {@code allowed} allows.
   *
   * @param where names the method in error messages
   */
  public static WrapperCodec<Object[]> requestCodec(String where, ObjectSerialization serialization,
      ClassLoader classLoader, List<Type> parameterTypes, AllowedClasses allowed) {
    return new RequestWrapperCodec(requireNonNull(where, "where"),
        Accepted.writing(requireNonNull(serialization, "serialization")), classLoader, List.copyOf(parameterTypes),
        requireNonNull(allowed, "allowed"));
  }

  /**
   * A response codec for an explicit result type, such as the element type of a response stream; it writes
   * {@code serialization} unless told another, reads every installed one, and instantiates only what
   * {@code allowed} allows.
   */
  public static WrapperCodec<Object> responseCodec(String where, ObjectSerialization serialization,
      ClassLoader classLoader, Type resultType, AllowedClasses allowed) {
    return new ResponseWrapperCodec<>(requireNonNull(where, "where"),
        Accepted.writing(requireNonNull(serialization, "serialization")), classLoader, resultType, Object.class,
        resultType, requireNonNull(allowed, "allowed"));
  }

  /** The codec of a method's argument list; {@code null} or an empty array for a method without parameters. */
  public WrapperCodec<Object[]> arguments() {
    return arguments;
  }

  /** The method's result as a JSON body ({@code null} for a {@code void} method), for Connect unary and curl. */
  public MessageCodec<Object> jsonResult() {
    return jsonResult;
  }

  /**
   * The method's result as a JSON body with no {@code "@class"} property (which {@link #jsonResult()} writes
   * for values of classes that may have subclasses, so that a Triple client reads them back as themselves):
   * for REST answers, which any JSON client reads.
   */
  public MessageCodec<Object> plainJsonResult() {
    return plainJsonResult;
  }

  /** An exception the service threw as a JSON body, for Connect unary and curl. */
  public MessageCodec<Throwable> jsonException() {
    return jsonException;
  }

  private static boolean isVoid(Type type) {
    return type == void.class || type == Void.class;
  }

  /** The codec of the method's result; {@code null} for a {@code void} method. */
  public WrapperCodec<Object> result() {
    return result;
  }

  /**
   * The codec of an exception the service threw, checked or runtime: its class, message, cause chain and
   * stack trace as far as the serialization carries them (hessian2 and fastjson2: every field; jackson:
   * class, message, cause, suppressed exceptions, stack trace and the application fields of the exception
   * class).
   */
  public WrapperCodec<Throwable> exception() {
    return exception;
  }

  /**
   * Whether {@code thrown} is an instance of an exception type the method's {@code throws} clause names:
   * those are the exceptions Dubbo 3.3 carries in the response body (others become a gRPC status).
   */
  public boolean declares(Throwable thrown) {
    return Arrays.stream(method.getExceptionTypes()).anyMatch(type -> type.isInstance(thrown));
  }

  /**
   * Whether a response whose {@value #EXCEPTION_CODE_HEADER} header is {@code value} (or absent, when
   * {@code null}) holds an exception rather than a result.
   */
  public static boolean isExceptionCode(CharSequence value) {
    if (value == null) {
      return false;
    }
    String code = value.toString().trim();
    return !code.isEmpty() && !code.equals("0");
  }

  /** The method these codecs serve. */
  public Method method() {
    return method;
  }

  /** The serialization the codecs write unless told another: the method's own. */
  public ObjectSerialization serialization() {
    return serialization;
  }

  /** The serializations the codecs read, {@link #serialization()} first. */
  public List<ObjectSerialization> serializations() {
    return arguments.serializations();
  }

  @Override
  public String toString() {
    return "WrapperCodecs{" + method.getDeclaringClass().getName() + "." + method.getName() + ", "
        + serialization.name() + '}';
  }
}
