package io.triplerpc.internal.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.MethodType;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ServiceDescriptorTest {

  @TripleService(name = "test.Shapes")
  interface Shapes {
    StringValue unary(StringValue request);

    CompletableFuture<StringValue> future(StringValue request);

    @TripleMethod(name = "Stream")
    void serverStream(StringValue request, StreamObserver<StringValue> responses);

    @TripleMethod(clientStreaming = true)
    StreamObserver<StringValue> upload(StreamObserver<StringValue> response);

    StreamObserver<StringValue> chat(StreamObserver<StringValue> responses);

    default String notRemote() {
      return "local";
    }
  }

  @Test
  void everyShapeIsRecognised() {
    ServiceDescriptor service = ServiceDescriptor.of(Shapes.class);
    assertEquals("test.Shapes", service.serviceName());
    Map<String, MethodBinding> byName = service.methods().stream()
        .collect(Collectors.toMap(b -> b.descriptor().methodName(), b -> b));
    assertEquals(5, byName.size());
    assertEquals(CallShape.BLOCKING_UNARY, byName.get("unary").shape());
    assertEquals(CallShape.FUTURE_UNARY, byName.get("future").shape());
    assertEquals(MethodType.SERVER_STREAMING, byName.get("Stream").descriptor().type());
    assertEquals(MethodType.CLIENT_STREAMING, byName.get("upload").descriptor().type());
    assertEquals(MethodType.BIDI_STREAMING, byName.get("chat").descriptor().type());
    assertEquals("/test.Shapes/Stream", byName.get("Stream").descriptor().path().toString());
  }

  interface NotAnnotated {
    StringValue call(StringValue request);
  }

  @TripleService
  interface BadShape {
    StringValue twoArgs(StringValue a, StringValue b);
  }

  @TripleService
  interface NotSerializable {
    StringValue call(Thread request);
  }

  @TripleService
  interface Overloaded {
    StringValue call(StringValue request);

    StringValue call(com.google.protobuf.Int32Value request);
  }

  @Test
  void invalidInterfacesAreRejectedNamingTheProblem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceDescriptor.of(NotAnnotated.class))
        .getMessage().contains("@TripleService"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceDescriptor.of(BadShape.class))
        .getMessage().contains("twoArgs"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceDescriptor.of(NotSerializable.class))
        .getMessage().contains("java.lang.Thread"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceDescriptor.of(Overloaded.class))
        .getMessage().contains("two RPC methods named call"));
  }

  @Test
  void theDefaultServiceNameIsTheInterfaceName() {
    @TripleService
    interface Local {
      StringValue call(StringValue request);
    }
    assertEquals(Local.class.getName(), ServiceDescriptor.of(Local.class).serviceName());
  }
}
