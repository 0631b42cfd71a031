package io.triplerpc.internal.descriptor;

import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.protobuf.ProtobufSerialization;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link TripleService} interface read once by reflection: its service name and one
 * {@link MethodBinding} per RPC method. Immutable; cached per interface.
 */
public final class ServiceDescriptor {

  /** Descriptors of services with no allow list of their own: one per interface, for good. */
  private static final Map<Class<?>, ServiceDescriptor> CACHE = new ConcurrentHashMap<>();
  /**
   * Descriptors of services with their server's or client's allow list, one per interface and list (which
   * compares by identity: it may grow). Weak both ways, since each descriptor refers to its list: they go
   * with the servers, clients and proxies that use them.
   */
  private static final Map<DeserializationAllowList, Map<Class<?>, WeakReference<ServiceDescriptor>>> WITH_LISTS =
      new WeakHashMap<>();
  /** The allow list of services read with none of their own: nothing beyond the class path's. */
  private static final DeserializationAllowList NO_ALLOW_LIST = DeserializationAllowList.create();
  private static final ProtobufSerialization PROTOBUF = new ProtobufSerialization();
  private static final String ASYNC_SUFFIX = "Async";

  private final Class<?> serviceInterface;
  private final String serviceName;
  private final List<MethodBinding> methods;
  private final Map<Method, MethodBinding> byJavaMethod;
  /** The {@code fooAsync} forms of unary methods that also have a {@code foo} form, by the RPC method. */
  private final Map<MethodDescriptor<?, ?>, MethodBinding> asyncForms;
  /** The methods of a name that several share, by that name; empty for a service without overloads. */
  private final Map<String, OverloadSet> overloadSets;
  /** The serialization the annotation names, empty for the default. */
  private final String serialization;
  /** The classes the service's plain Java values may be of. */
  private final AllowedClasses allowed;

  private ServiceDescriptor(Class<?> serviceInterface, String serviceName, List<MethodBinding> methods,
      String serialization, AllowedClasses allowed) {
    this(serviceInterface, serviceName, methods, List.of(), Map.of(), serialization, allowed);
  }

  private ServiceDescriptor(Class<?> serviceInterface, String serviceName, List<MethodBinding> methods,
      List<MethodBinding> asyncForms, Map<String, OverloadSet> overloadSets, String serialization,
      AllowedClasses allowed) {
    this.serviceInterface = serviceInterface;
    this.overloadSets = Map.copyOf(overloadSets);
    this.serviceName = serviceName;
    this.serialization = serialization;
    this.allowed = allowed;
    this.methods = Collections.unmodifiableList(methods);
    Map<Method, MethodBinding> map = new HashMap<>();
    for (MethodBinding binding : methods) {
      map.put(binding.javaMethod(), binding);
    }
    Map<MethodDescriptor<?, ?>, MethodBinding> async = new HashMap<>();
    for (MethodBinding binding : asyncForms) {
      map.put(binding.javaMethod(), binding);
      async.put(binding.descriptor(), binding);
    }
    this.byJavaMethod = map;
    this.asyncForms = async;
  }

  /**
   * The descriptor of {@code serviceInterface}.
   *
   * @throws IllegalArgumentException if it is not an interface annotated {@link TripleService} (or carrying
   *     JAX-RS or Spring Web annotations, which serve as its mark), or a
   *     method has a shape Triple cannot call, naming the method
   */
  public static ServiceDescriptor of(Class<?> serviceInterface) {
    return of(serviceInterface, NO_ALLOW_LIST);
  }

  /**
   * The descriptor of {@code serviceInterface} whose plain Java values may also be of the classes
   * {@code allowList} allows (see {@link AllowedClasses}); one per interface and list.
   *
   * @throws IllegalArgumentException as {@link #of(Class)} does
   */
  public static ServiceDescriptor of(Class<?> serviceInterface, DeserializationAllowList allowList) {
    if (allowList == NO_ALLOW_LIST) {
      return CACHE.computeIfAbsent(serviceInterface, type -> read(type, NO_ALLOW_LIST));
    }
    synchronized (WITH_LISTS) {
      Map<Class<?>, WeakReference<ServiceDescriptor>> byType =
          WITH_LISTS.computeIfAbsent(allowList, list -> new HashMap<>());
      WeakReference<ServiceDescriptor> cached = byType.get(serviceInterface);
      ServiceDescriptor descriptor = cached == null ? null : cached.get();
      if (descriptor == null) {
        descriptor = read(serviceInterface, allowList);
        byType.put(serviceInterface, new WeakReference<>(descriptor));
      }
      return descriptor;
    }
  }

  public Class<?> serviceInterface() {
    return serviceInterface;
  }

  public String serviceName() {
    return serviceName;
  }

  /**
   * The RPC methods, each Java overload of a name its own binding (see {@link #overloads}), by name then by
   * number of parameters.
   */
  public List<MethodBinding> methods() {
    return methods;
  }

  /** The overloads {@code method} is one of, or null if no other RPC method has its name. */
  public OverloadSet overloads(MethodBinding method) {
    return overloadSets.isEmpty() ? null : overloadSets.get(method.descriptor().methodName());
  }

  /** The binding of an interface method, or null for a method that is not an RPC method. */
  public MethodBinding binding(Method javaMethod) {
    return byJavaMethod.get(javaMethod);
  }

  /**
   * The form of {@code method} (one of {@link #methods()}) that {@code implementation} serves: for a unary
   * method declared both as {@code foo} and {@code fooAsync}, the one the implementation provides rather
   * than inherits as the interface's default, the asynchronous one when it provides both; else
   * {@code method} itself.
   *
   * @throws IllegalArgumentException if the implementation provides neither form
   */
  public MethodBinding servedForm(MethodBinding method, Class<?> implementation) {
    MethodBinding async = asyncForms.get(method.descriptor());
    if (async == null) {
      return method;
    }
    if (provides(implementation, async.javaMethod())) {
      return async;
    }
    if (provides(implementation, method.javaMethod())) {
      return method;
    }
    throw new IllegalArgumentException(implementation.getName() + " implements neither "
        + method.javaMethod().getName() + " nor " + async.javaMethod().getName() + " of "
        + serviceInterface.getName() + ": both are default methods that call each other");
  }

  /**
   * Whether {@code type} or one of its methods carries a JAX-RS ({@code jakarta.ws.rs}, {@code javax.ws.rs})
   * or Spring Web annotation, read by name as the REST routes are: such an interface, written for Dubbo 3.3's
   * Triple REST, needs no {@code @TripleService}.
   */
  private static boolean declaresWebRoutes(Class<?> type) {
    List<java.lang.reflect.AnnotatedElement> elements = new ArrayList<>(List.of(type.getMethods()));
    elements.add(type);
    for (java.lang.reflect.AnnotatedElement element : elements) {
      for (java.lang.annotation.Annotation annotation : element.getAnnotations()) {
        String name = annotation.annotationType().getName();
        if (name.startsWith("jakarta.ws.rs.") || name.startsWith("javax.ws.rs.")
            || name.startsWith("org.springframework.web.bind.annotation.")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code type} has its own code for the interface method {@code declared}, not the interface's default. */
  private static boolean provides(Class<?> type, Method declared) {
    if (!declared.isDefault()) {
      return true;
    }
    try {
      return !type.getMethod(declared.getName(), declared.getParameterTypes()).equals(declared);
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static ServiceDescriptor read(Class<?> type, DeserializationAllowList allowList) {
    if (!type.isInterface()) {
      throw new IllegalArgumentException(type.getName() + " is not an interface");
    }
    TripleService annotation = type.getAnnotation(TripleService.class);
    if (annotation == null && !declaresWebRoutes(type)) {
      throw new IllegalArgumentException(type.getName() + " is not annotated @TripleService (nor with JAX-RS or"
          + " Spring Web routes)");
    }
    // An interface with REST annotations and no @TripleService is served as Dubbo serves it: named by its
    // fully qualified name, values in the default serialization.
    String serviceName = annotation == null || annotation.name().isEmpty() ? type.getName() : annotation.name();
    String serialization = annotation == null ? "" : annotation.serialization();
    List<Method> candidates = new ArrayList<>();
    for (Method method : type.getMethods()) {
      if (!Modifier.isStatic(method.getModifiers()) && !declaredByObject(method)) {
        candidates.add(method);
      }
    }
    Map<Method, Method> syncForms = asyncPairs(candidates);
    Map<Method, Method> asyncFormOf = new HashMap<>();
    syncForms.forEach((async, sync) -> asyncFormOf.put(sync, async));
    List<Method> rpcMethods = new ArrayList<>();
    List<Type> declared = new ArrayList<>();
    for (Method method : candidates) {
      if (method.isDefault() && !syncForms.containsKey(method) && !asyncFormOf.containsKey(method)) {
        continue;
      }
      if (!syncForms.containsKey(method)) {
        rpcMethods.add(method);
      }
      declared.addAll(declaredTypes(type, method));
    }
    // One set for the whole service, built before any codec: every method may receive what any reaches.
    AllowedClasses allowed =
        AllowedClasses.forTypes("service " + serviceName, declared, type.getClassLoader(), allowList);
    List<MethodBinding> bindings = new ArrayList<>();
    Map<Method, MethodBinding> bySyncForm = new HashMap<>();
    Map<String, List<MethodBinding>> byName = new HashMap<>();
    for (Method method : rpcMethods) {
      MethodBinding binding = bind(type, serviceName, serialization, method, asyncFormOf.get(method),
          allowed);
      byName.computeIfAbsent(binding.descriptor().methodName(), name -> new ArrayList<>()).add(binding);
      bindings.add(binding);
      bySyncForm.put(method, binding);
    }
    Map<String, OverloadSet> overloadSets = new HashMap<>();
    byName.forEach((name, named) -> {
      if (named.size() > 1) {
        overloadSets.put(name, overloadSet(type, serviceName, name, named));
      }
    });
    List<MethodBinding> asyncForms = new ArrayList<>();
    syncForms.forEach((async, sync) -> {
      MethodBinding syncBinding = bySyncForm.get(sync);
      asyncForms.add(new MethodBinding(async, syncBinding.descriptor(), CallShape.FUTURE_UNARY, syncBinding.wrapped()));
    });
    bindings.sort(BY_NAME_AND_PARAMETERS);
    return new ServiceDescriptor(type, serviceName, bindings, asyncForms, overloadSets, serialization, allowed);
  }

  /**
   * The overloads of {@code name}: every one must be unary with plain Java types, which requests can name
   * by their parameter types (Dubbo's {@code argTypes}); protobuf and streaming methods cannot be told apart.
   */
  private static OverloadSet overloadSet(Class<?> type, String serviceName, String name, List<MethodBinding> named) {
    named.sort(BY_NAME_AND_PARAMETERS);
    for (MethodBinding binding : named) {
      if (binding.wrapped() == null || !binding.wrapped().isUnary()) {
        throw new IllegalArgumentException(type.getName() + " has " + named.size() + " RPC methods named " + name
            + ", and " + signature(binding.javaMethod()) + " is not a unary method with plain Java types: only"
            + " those may be overloaded (their requests name their parameter types); give the others names of"
            + " their own (@TripleMethod(name))");
      }
    }
    return new OverloadSet(serviceName, name, type, named);
  }

  /** {@code name(type, type)}, for messages. */
  static String signature(Method method) {
    StringBuilder signature = new StringBuilder(method.getName()).append('(');
    for (Class<?> parameter : method.getParameterTypes()) {
      signature.append(signature.charAt(signature.length() - 1) == '(' ? "" : ", ").append(parameter.getName());
    }
    return signature.append(')').toString();
  }

  /** RPC methods by name; overloads by number of parameters, then by their types' names. */
  private static final Comparator<MethodBinding> BY_NAME_AND_PARAMETERS =
      Comparator.<MethodBinding, String>comparing(binding -> binding.descriptor().methodName())
          .thenComparingInt(binding -> binding.javaMethod().getParameterCount())
          .thenComparing(binding -> Arrays.toString(
              Arrays.stream(binding.javaMethod().getParameterTypes()).map(Class::getName).toArray()));

  /** The classes this service's plain Java values may be of. */
  public AllowedClasses allowedClasses() {
    return allowed;
  }

  /**
   * The generic calls of this service ({@link GenericInvocation.Served}'s methods, named as this service),
   * in its serialization, whose exceptions travel as this service's do; null if it has no unary plain Java
   * method to reach.
   */
  public ServiceDescriptor genericServed() {
    boolean reachable = false;
    for (MethodBinding binding : methods) {
      reachable |= binding.wrapped() != null && binding.wrapped().isUnary();
      if (GenericInvocation.isGeneric(binding.descriptor().methodName())) {
        return null;
      }
    }
    return reachable ? generic(GenericInvocation.Served.class, serviceName, serialization, allowed) : null;
  }

  /**
   * A client's generic calls of {@code serviceName}, whose results may be of the JDK value types and what
   * {@code allowList} allows.
   */
  public static ServiceDescriptor genericCalls(String serviceName, String serialization,
      DeserializationAllowList allowList) {
    AllowedClasses allowed = AllowedClasses.forTypes("generic calls of " + serviceName, List.of(),
        GenericInvocation.class.getClassLoader(), allowList);
    return generic(GenericInvocation.Calls.class, serviceName, serialization, allowed);
  }

  private static ServiceDescriptor generic(
      Class<?> type, String serviceName, String serialization, AllowedClasses allowed) {
    List<MethodBinding> bindings = new ArrayList<>();
    for (Method method : type.getMethods()) {
      bindings.add(bind(type, serviceName, serialization, method, null, allowed));
    }
    bindings.sort((a, b) -> a.descriptor().methodName().compareTo(b.descriptor().methodName()));
    return new ServiceDescriptor(type, serviceName, bindings, serialization, allowed);
  }

  /**
   * The unary methods declared in both forms, {@code R foo(Q)} and {@code CompletableFuture<R> fooAsync(Q)}: each
   * {@code fooAsync} mapped to its {@code foo}. Both forms are one RPC method, named by {@code foo}'s
   * {@link TripleMethod} name, else by {@code fooAsync}'s, else {@code foo}; two different explicit names make
   * two RPC methods.
   */
  private static Map<Method, Method> asyncPairs(List<Method> methods) {
    Map<Method, Method> pairs = new HashMap<>();
    for (Method async : methods) {
      String name = async.getName();
      if (!name.endsWith(ASYNC_SUFFIX) || name.length() == ASYNC_SUFFIX.length()
          || async.getReturnType() != CompletableFuture.class || takesObserver(async)) {
        continue;
      }
      for (Method sync : methods) {
        if (sync.getName().equals(name.substring(0, name.length() - ASYNC_SUFFIX.length()))
            && Arrays.equals(sync.getParameterTypes(), async.getParameterTypes())
            && isBlockingUnary(sync)
            && sameResult(sync.getGenericReturnType(), async.getGenericReturnType())
            && compatibleNames(sync, async)) {
          pairs.put(async, sync);
        }
      }
    }
    return pairs;
  }

  private static boolean takesObserver(Method method) {
    return Arrays.asList(method.getParameterTypes()).contains(StreamObserver.class);
  }

  private static boolean isBlockingUnary(Method method) {
    Class<?> result = method.getReturnType();
    return !takesObserver(method) && result != StreamObserver.class && !CompletionStage.class.isAssignableFrom(result);
  }

  /** Whether {@code futureType}, a {@code CompletableFuture<T>}, completes with what {@code syncResult} returns. */
  private static boolean sameResult(Type syncResult, Type futureType) {
    if (!(futureType instanceof ParameterizedType)) {
      return false;
    }
    Type completesWith = ((ParameterizedType) futureType).getActualTypeArguments()[0];
    Type returned = syncResult instanceof Class<?> ? Types.boxed((Class<?>) syncResult) : syncResult;
    return returned.equals(completesWith);
  }

  private static boolean compatibleNames(Method sync, Method async) {
    String syncName = explicitName(sync);
    String asyncName = explicitName(async);
    return syncName.isEmpty() || asyncName.isEmpty() || syncName.equals(asyncName);
  }

  private static String explicitName(Method method) {
    TripleMethod options = method.getAnnotation(TripleMethod.class);
    return options == null ? "" : options.name();
  }

  /** Whether {@code method} is one of Object's, perhaps redeclared by the interface (toString()). */
  private static boolean declaredByObject(Method method) {
    try {
      Object.class.getMethod(method.getName(), method.getParameterTypes());
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /**
   * The plain Java types whose values {@code method} carries: parameters, result and exceptions, with the
   * element type in place of a {@code StreamObserver} or {@code CompletableFuture}, resolved against
   * {@code service}. Protobuf messages are left out: they never travel as hessian2, fastjson2 or jackson objects.
   */
  private static List<Type> declaredTypes(Class<?> service, Method method) {
    List<Type> types = new ArrayList<>();
    for (Type parameter : method.getGenericParameterTypes()) {
      types.add(elementType(parameter));
    }
    types.add(elementType(method.getGenericReturnType()));
    types.addAll(Arrays.asList(method.getGenericExceptionTypes()));
    types.replaceAll(declared -> Types.resolve(declared, service));
    types.removeIf(ServiceDescriptor::isProtobuf);
    return types;
  }

  /** What a {@code StreamObserver<T>} or {@code CompletableFuture<T>} carries; other types as they are. */
  private static Type elementType(Type type) {
    Class<?> raw = Types.rawClass(type);
    if (raw != StreamObserver.class && !CompletionStage.class.isAssignableFrom(raw)) {
      return type;
    }
    return type instanceof ParameterizedType ? ((ParameterizedType) type).getActualTypeArguments()[0] : Object.class;
  }

  /**
   * Binds {@code method} to its RPC method; {@code asyncForm}, its {@code fooAsync} form or null, may name the
   * RPC method and mark it idempotent too.
   */
  private static MethodBinding bind(Class<?> service, String serviceName, String serialization, Method method,
      Method asyncForm, AllowedClasses allowed) {
    TripleMethod options = method.getAnnotation(TripleMethod.class);
    TripleMethod asyncOptions = asyncForm == null ? null : asyncForm.getAnnotation(TripleMethod.class);
    String name = !explicitName(method).isEmpty() ? explicitName(method)
        : asyncForm != null && !explicitName(asyncForm).isEmpty() ? explicitName(asyncForm) : method.getName();
    boolean idempotent = options != null && options.idempotent() || asyncOptions != null && asyncOptions.idempotent();
    Type[] params = method.getGenericParameterTypes();
    Class<?>[] rawParams = method.getParameterTypes();
    Class<?> returnType = method.getReturnType();
    String where = method.getDeclaringClass().getName() + "." + method.getName();
    boolean takesObserver = takesObserver(method);

    CallShape shape;
    MethodType type;
    Type requestType;
    Type responseType;
    if (params.length == 1 && returnType == StreamObserver.class) {
      shape = CallShape.REQUEST_STREAMING;
      type = options != null && options.clientStreaming() ? MethodType.CLIENT_STREAMING : MethodType.BIDI_STREAMING;
      requestType = typeArgument(method.getGenericReturnType(), where, "return type");
      responseType = observerType(params[0], where);
    } else if (params.length == 2 && returnType == void.class && rawParams[1] == StreamObserver.class) {
      shape = CallShape.SERVER_STREAMING;
      type = MethodType.SERVER_STREAMING;
      requestType = params[0];
      responseType = observerType(params[1], where);
    } else if (!takesObserver && returnType == CompletableFuture.class) {
      shape = CallShape.FUTURE_UNARY;
      type = MethodType.UNARY;
      requestType = params.length == 1 ? params[0] : null;
      responseType = typeArgument(method.getGenericReturnType(), where, "return type");
    } else if (!takesObserver && returnType != StreamObserver.class) {
      shape = CallShape.BLOCKING_UNARY;
      type = MethodType.UNARY;
      requestType = params.length == 1 ? params[0] : null;
      responseType = method.getGenericReturnType();
    } else {
      throw new IllegalArgumentException("Method " + where + " has a shape Triple cannot call; use R m(Q), "
          + "CompletableFuture<R> m(Q), void m(Q, StreamObserver<R>) or StreamObserver<Q> m(StreamObserver<R>)");
    }
    if (options != null && options.clientStreaming() && shape != CallShape.REQUEST_STREAMING) {
      throw new IllegalArgumentException(
          "Method " + where + " is marked clientStreaming but is not StreamObserver<Q> m(StreamObserver<R>)");
    }
    MethodDescriptor<Object, Object> descriptor;
    WrappedMethod wrapped = null;
    if (requestType != null && isProtobuf(requestType) && isProtobuf(responseType)) {
      descriptor = MethodDescriptor.of(serviceName, name, type,
          codec(rawClass(requestType, where), where), codec(rawClass(responseType, where), where), idempotent);
    } else {
      ObjectSerialization objects = objectSerialization(serialization, service);
      try {
        wrapped = type == MethodType.UNARY
            ? WrappedMethod.unary(service, method, objects, allowed)
            : WrappedMethod.streaming(service, method, objects, requestType, responseType, allowed);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Method " + where + ": " + e.getMessage(), e);
      }
      descriptor = MethodDescriptor.of(serviceName, name, type, wrapped.requestCodec(), wrapped.responseCodec(),
          idempotent);
    }
    return new MethodBinding(method, descriptor, shape, wrapped);
  }

  private static boolean isProtobuf(Type type) {
    Class<?> raw = type instanceof Class<?> ? (Class<?>) type
        : type instanceof ParameterizedType ? (Class<?>) ((ParameterizedType) type).getRawType() : null;
    return raw != null && PROTOBUF.supports(raw);
  }

  private static ObjectSerialization objectSerialization(String name, Class<?> service) {
    try {
      return name.isEmpty() ? ObjectSerializations.defaultSerialization() : ObjectSerializations.named(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(service.getName() + ": " + e.getMessage(), e);
    } catch (IllegalStateException e) {
      // A serialization whose artifact is missing (fastjson2): the message names the artifact to add.
      throw new IllegalStateException(service.getName() + ": " + e.getMessage(), e);
    }
  }

  @SuppressWarnings("unchecked")
  private static MessageCodec<Object> codec(Class<?> type, String where) {
    try {
      return (MessageCodec<Object>) Serializations.codecFor(type);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Method " + where + ": " + e.getMessage(), e);
    }
  }

  private static Type observerType(Type type, String where) {
    if (rawClass(type, where) != StreamObserver.class) {
      throw new IllegalArgumentException("Method " + where + " must take a StreamObserver<R> for its responses");
    }
    return typeArgument(type, where, "StreamObserver parameter");
  }

  private static Type typeArgument(Type type, String where, String what) {
    if (!(type instanceof ParameterizedType)) {
      throw new IllegalArgumentException("Method " + where + ": the " + what + " needs a type argument");
    }
    Type argument = ((ParameterizedType) type).getActualTypeArguments()[0];
    if (argument instanceof WildcardType) {
      throw new IllegalArgumentException("Method " + where + ": cannot use type " + argument + " as a message type");
    }
    return argument;
  }

  private static Class<?> rawClass(Type type, String where) {
    if (type instanceof Class<?>) {
      return (Class<?>) type;
    }
    if (type instanceof ParameterizedType) {
      return (Class<?>) ((ParameterizedType) type).getRawType();
    }
    throw new IllegalArgumentException("Method " + where + ": cannot use type " + type + " as a message type");
  }
}
