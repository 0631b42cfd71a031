package io.triplerpc.internal.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Empty;
import com.google.protobuf.Int32Value;
import com.google.protobuf.StringValue;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ServiceDescriptorTest {

  @TripleService(name = "test.Shapes")
  interface Shapes {
    StringValue unary(StringValue request);

    CompletableFuture<Int32Value> future(StringValue request);

    @TripleMethod(name = "Stream")
    void serverStream(StringValue request, StreamObserver<Int32Value> responses);

    @TripleMethod(clientStreaming = true)
    StreamObserver<StringValue> upload(StreamObserver<Empty> response);

    StreamObserver<StringValue> chat(StreamObserver<Int32Value> responses);

    @TripleMethod(idempotent = true)
    Empty ping(Empty request);

    default String notRemote() {
      return "local";
    }

    static String alsoNotRemote() {
      return "static";
    }
  }

  @Test
  void everyShapeIsRecognized() throws IOException {
    Map<String, MethodBinding> byName = byName(ServiceDescriptor.of(Shapes.class));
    assertEquals(List.of("Stream", "chat", "future", "ping", "unary", "upload"), List.copyOf(byName.keySet()));

    assertShape(byName.get("unary"), CallShape.BLOCKING_UNARY, MethodType.UNARY, StringValue.class, StringValue.class);
    assertShape(byName.get("future"), CallShape.FUTURE_UNARY, MethodType.UNARY, StringValue.class, Int32Value.class);
    assertShape(byName.get("Stream"), CallShape.SERVER_STREAMING, MethodType.SERVER_STREAMING,
        StringValue.class, Int32Value.class);
    assertShape(byName.get("upload"), CallShape.REQUEST_STREAMING, MethodType.CLIENT_STREAMING,
        StringValue.class, Empty.class);
    assertShape(byName.get("chat"), CallShape.REQUEST_STREAMING, MethodType.BIDI_STREAMING,
        StringValue.class, Int32Value.class);
  }

  @Test
  void namesAndPathsComeFromTheServiceAndTheMethod() {
    ServiceDescriptor service = ServiceDescriptor.of(Shapes.class);
    assertEquals("test.Shapes", service.serviceName());
    assertSame(Shapes.class, service.serviceInterface());
    MethodDescriptor<Object, Object> unary = byName(service).get("unary").descriptor();
    assertEquals("test.Shapes", unary.serviceName());
    assertEquals("test.Shapes/unary", unary.fullMethodName());
    assertEquals("/test.Shapes/unary", unary.path().toString());
  }

  @Test
  void tripleMethodNameOverridesTheJavaName() throws Exception {
    MethodBinding stream = ServiceDescriptor.of(Shapes.class)
        .binding(Shapes.class.getMethod("serverStream", StringValue.class, StreamObserver.class));
    assertEquals("Stream", stream.descriptor().methodName());
    assertEquals("/test.Shapes/Stream", stream.descriptor().path().toString());
  }

  @Test
  void onlyMethodsMarkedIdempotentAre() {
    Map<String, MethodBinding> byName = byName(ServiceDescriptor.of(Shapes.class));
    assertTrue(byName.get("ping").descriptor().isIdempotent());
    assertFalse(byName.get("unary").descriptor().isIdempotent());
  }

  @Test
  void defaultAndStaticMethodsAreNotRpcMethods() throws Exception {
    ServiceDescriptor service = ServiceDescriptor.of(Shapes.class);
    assertNull(service.binding(Shapes.class.getMethod("notRemote")));
    assertNull(service.binding(Shapes.class.getMethod("alsoNotRemote")));
    assertNull(service.binding(Object.class.getMethod("toString")));
  }

  @Test
  void bindingsAreFoundByTheirJavaMethod() throws Exception {
    ServiceDescriptor service = ServiceDescriptor.of(Shapes.class);
    for (MethodBinding binding : service.methods()) {
      assertSame(binding, service.binding(binding.javaMethod()));
    }
  }

  @Test
  void descriptorsAreBuiltOncePerInterface() {
    assertSame(ServiceDescriptor.of(Shapes.class), ServiceDescriptor.of(Shapes.class));
  }

  @Test
  void theMethodListCannotBeChanged() {
    List<MethodBinding> methods = ServiceDescriptor.of(Shapes.class).methods();
    assertThrows(UnsupportedOperationException.class, () -> methods.remove(0));
  }

  @Test
  void theDefaultServiceNameIsTheInterfaceName() {
    @TripleService
    interface Local {
      StringValue call(StringValue request);
    }
    assertEquals(Local.class.getName(), ServiceDescriptor.of(Local.class).serviceName());
  }

  interface Base {
    StringValue inherited(StringValue request);
  }

  @TripleService(name = "test.Derived")
  interface Derived extends Base {
    StringValue own(StringValue request);
  }

  @Test
  void inheritedMethodsAreRpcMethodsOfTheService() throws Exception {
    ServiceDescriptor service = ServiceDescriptor.of(Derived.class);
    assertEquals(List.of("inherited", "own"), List.copyOf(byName(service).keySet()));
    assertEquals("/test.Derived/inherited",
        service.binding(Base.class.getMethod("inherited", StringValue.class)).descriptor().path().toString());
  }

  interface NotAnnotated {
    StringValue call(StringValue request);
  }

  @TripleService
  abstract static class NotAnInterface {
    abstract StringValue call(StringValue request);
  }

  @Test
  void aMissingAnnotationIsRejected() {
    assertRejected(NotAnnotated.class, "is not annotated @TripleService");
  }

  @Test
  void aClassIsRejected() {
    assertRejected(NotAnInterface.class, "is not an interface");
  }

  @TripleService
  interface NoArguments {
    StringValue call();
  }

  @TripleService
  interface VoidUnary {
    void call(StringValue request);
  }

  @TripleService
  interface TwoRequests {
    StringValue twoArgs(StringValue a, StringValue b);
  }

  @TripleService
  interface ThreeArguments {
    void call(StringValue a, StringValue b, StreamObserver<StringValue> responses);
  }

  @TripleService
  interface ServerStreamWithoutObserver {
    void call(StringValue request, StringValue notAnObserver);
  }

  @TripleService
  interface RequestStreamWithoutObserver {
    StreamObserver<StringValue> call(StringValue notAnObserver);
  }

  @TripleService
  @SuppressWarnings("rawtypes")
  interface RawObserver {
    void call(StringValue request, StreamObserver responses);
  }

  @TripleService
  @SuppressWarnings("rawtypes")
  interface RawFuture {
    CompletableFuture call(StringValue request);
  }

  @TripleService
  interface WildcardObserver {
    void call(StringValue request, StreamObserver<? extends StringValue> responses);
  }

  @TripleService
  interface ClientStreamingUnary {
    @TripleMethod(clientStreaming = true)
    StringValue call(StringValue request);
  }

  @TripleService
  interface NotSerializable {
    StringValue call(Thread request);
  }

  @TripleService
  interface NotSerializableResponse {
    void call(StringValue request, StreamObserver<Thread> responses);
  }

  @TripleService
  interface Overloaded {
    StringValue call(StringValue request);

    StringValue call(Int32Value request);
  }

  @TripleService
  interface RenamedOntoAnother {
    StringValue first(StringValue request);

    @TripleMethod(name = "first")
    StringValue second(StringValue request);
  }

  @Test
  void badShapesAreRejectedNamingTheMethod() {
    assertRejected(ThreeArguments.class, ThreeArguments.class.getName() + ".call has a shape Triple cannot call");
    assertRejected(RequestStreamWithoutObserver.class,
        RequestStreamWithoutObserver.class.getName() + ".call must take a StreamObserver<R>");
    assertRejected(RawObserver.class, RawObserver.class.getName() + ".call: the StreamObserver parameter needs a type argument");
    assertRejected(RawFuture.class, RawFuture.class.getName() + ".call: the return type needs a type argument");
    assertRejected(WildcardObserver.class, WildcardObserver.class.getName() + ".call: cannot use type");
    assertRejected(ClientStreamingUnary.class, ClientStreamingUnary.class.getName() + ".call is marked clientStreaming");
  }

  @Test
  void unaryMethodsOfOtherArityOrWithPlainJavaTypesTravelInWrappers() {
    for (Class<?> service : List.of(NoArguments.class, VoidUnary.class, TwoRequests.class,
        ServerStreamWithoutObserver.class, NotSerializable.class)) {
      MethodBinding binding = ServiceDescriptor.of(service).methods().get(0);
      assertEquals(MethodType.UNARY, binding.descriptor().type(), service.getName());
      assertTrue(binding.wrapped() != null && binding.wrapped().isUnary(), service.getName());
    }
    MethodBinding stream = ServiceDescriptor.of(NotSerializableResponse.class).methods().get(0);
    assertEquals(MethodType.SERVER_STREAMING, stream.descriptor().type());
    assertTrue(stream.wrapped() != null && !stream.wrapped().isUnary());
  }

  @Test
  void anUnknownSerializationIsRejectedNamingTheService() {
    assertRejected(UnknownSerialization.class, UnknownSerialization.class.getName() + ": No object serialization named 'xml'");
  }

  @TripleService(serialization = "xml")
  interface UnknownSerialization {
    String call(String request);
  }

  @Test
  void protobufOrStreamingMethodsOfOneWireNameAreRejected() {
    assertRejected(Overloaded.class, "has 2 RPC methods named call, and call(com.google.protobuf.Int32Value) is not"
        + " a unary method with plain Java types: only those may be overloaded");
    assertRejected(RenamedOntoAnother.class, "has 2 RPC methods named first");
    assertRejected(StreamingOverload.class, "watch(java.lang.String, io.triplerpc.StreamObserver) is not a unary"
        + " method with plain Java types");
  }

  @TripleService
  interface PlainOverloads {
    String greet();

    String greet(String name);

    String greet(String name, int times);

    long count(long from);
  }

  @TripleService
  interface StreamingOverload {
    String watch(String name, int times);

    void watch(String name, StreamObserver<String> updates);
  }

  @Test
  void unaryPlainJavaOverloadsShareOneRpcMethodEachBoundOnItsOwn() {
    ServiceDescriptor service = ServiceDescriptor.of(PlainOverloads.class);
    List<MethodBinding> methods = service.methods();
    assertEquals(List.of("count", "greet", "greet", "greet"),
        methods.stream().map(binding -> binding.descriptor().methodName()).toList());
    assertNull(service.overloads(methods.get(0)), "a method with a name of its own has no overload set");
    OverloadSet greet = service.overloads(methods.get(1));
    assertSame(greet, service.overloads(methods.get(3)));
    assertEquals(List.of(0, 1, 2), greet.overloads().stream().map(b -> b.javaMethod().getParameterCount()).toList());
    assertEquals("greet", greet.descriptor().methodName());
    assertEquals(1, greet.indexOf(methods.get(2)));
    for (MethodBinding overload : greet.overloads()) {
      // A client calls each overload with its own codecs, which name its parameter types.
      assertTrue(overload.descriptor() != greet.descriptor());
      assertSame(overload, service.binding(overload.javaMethod()));
    }
  }

  private static void assertRejected(Class<?> serviceInterface, String expected) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ServiceDescriptor.of(serviceInterface));
    assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
  }

  private static void assertShape(
      MethodBinding binding, CallShape shape, MethodType type, Class<?> request, Class<?> response)
      throws IOException {
    String name = binding.descriptor().methodName();
    assertEquals(shape, binding.shape(), name);
    assertEquals(type, binding.descriptor().type(), name);
    // Each codec reads its own message type: zero bytes are that type's default instance.
    assertEquals(request, binding.descriptor().requestCodec().read(ByteBuffer.allocate(0)).getClass(), name);
    assertEquals(response, binding.descriptor().responseCodec().read(ByteBuffer.allocate(0)).getClass(), name);
  }

  private static Map<String, MethodBinding> byName(ServiceDescriptor service) {
    return service.methods().stream().collect(Collectors.toMap(
        b -> b.descriptor().methodName(), b -> b, (a, b) -> a, LinkedHashMap::new));
  }
}
