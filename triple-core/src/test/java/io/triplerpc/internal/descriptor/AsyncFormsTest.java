package io.triplerpc.internal.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import com.google.protobuf.StringValue;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code foo} and {@code fooAsync}: one RPC method, two ways to call it, either way to serve it. */
class AsyncFormsTest {

  @TripleService(name = "test.Greeter")
  interface Greeter {
    @TripleMethod(name = "SayHello", idempotent = true)
    StringValue sayHello(StringValue request);

    default CompletableFuture<StringValue> sayHelloAsync(StringValue request) {
      return CompletableFuture.completedFuture(sayHello(request));
    }
  }

  @Test
  void bothFormsAreOneRpcMethod() throws Exception {
    ServiceDescriptor service = ServiceDescriptor.of(Greeter.class);
    assertEquals(List.of("SayHello"), names(service));
    MethodBinding sync = service.binding(Greeter.class.getMethod("sayHello", StringValue.class));
    MethodBinding async = service.binding(Greeter.class.getMethod("sayHelloAsync", StringValue.class));
    assertSame(sync.descriptor(), async.descriptor());
    assertEquals(CallShape.BLOCKING_UNARY, sync.shape());
    assertEquals(CallShape.FUTURE_UNARY, async.shape());
    assertTrue(sync.descriptor().isIdempotent());
  }

  @TripleService(name = "test.Named")
  interface NamedByTheAsyncForm {
    StringValue lookUp(StringValue request);

    @TripleMethod(name = "LookUp", idempotent = true)
    CompletableFuture<StringValue> lookUpAsync(StringValue request);
  }

  @Test
  void theAsyncFormMayNameTheMethod() {
    ServiceDescriptor service = ServiceDescriptor.of(NamedByTheAsyncForm.class);
    assertEquals(List.of("LookUp"), names(service));
    assertTrue(service.methods().get(0).descriptor().isIdempotent());
  }

  @TripleService(name = "test.Separate")
  interface TwoExplicitNames {
    @TripleMethod(name = "SayHello")
    StringValue sayHello(StringValue request);

    @TripleMethod(name = "SayHelloAsync")
    CompletableFuture<StringValue> sayHelloAsync(StringValue request);
  }

  @Test
  void twoDifferentExplicitNamesAreTwoRpcMethods() {
    assertEquals(List.of("SayHello", "SayHelloAsync"), names(ServiceDescriptor.of(TwoExplicitNames.class)));
  }

  @TripleService(name = "test.NotPairs")
  interface NotPairs {
    // Another result type, other parameters, no sync form: each is its own method.
    StringValue convert(StringValue request);

    CompletableFuture<Int32Value> convertAsync(StringValue request);

    StringValue find(StringValue request);

    CompletableFuture<StringValue> findAsync(Int32Value request);

    CompletableFuture<StringValue> loadAsync(StringValue request);

    default CompletableFuture<StringValue> localAsync(StringValue request) {
      return CompletableFuture.completedFuture(request);
    }
  }

  @Test
  void onlyMatchingSignaturesPair() {
    assertEquals(List.of("convert", "convertAsync", "find", "findAsync", "loadAsync"),
        names(ServiceDescriptor.of(NotPairs.class)));
  }

  @TripleService(name = "test.Counter")
  interface Counter {
    int count(String prefix);

    CompletableFuture<Integer> countAsync(String prefix);

    void reset();

    CompletableFuture<Void> resetAsync();
  }

  @Test
  void primitiveAndVoidResultsPairWithTheirBoxes() {
    ServiceDescriptor service = ServiceDescriptor.of(Counter.class);
    assertEquals(List.of("count", "reset"), names(service));
  }

  @TripleService(name = "test.Either")
  interface Either {
    default StringValue echo(StringValue request) {
      return echoAsync(request).join();
    }

    default CompletableFuture<StringValue> echoAsync(StringValue request) {
      return CompletableFuture.completedFuture(echo(request));
    }
  }

  static class SyncOnly implements Either {
    @Override
    public StringValue echo(StringValue request) {
      return request;
    }
  }

  static class AsyncOnly implements Either {
    @Override
    public CompletableFuture<StringValue> echoAsync(StringValue request) {
      return CompletableFuture.completedFuture(request);
    }
  }

  static class Both extends SyncOnly {
    @Override
    public CompletableFuture<StringValue> echoAsync(StringValue request) {
      return CompletableFuture.completedFuture(request);
    }
  }

  static class Neither implements Either {}

  @Test
  void aServerServesTheFormItsImplementationProvides() throws Exception {
    ServiceDescriptor service = ServiceDescriptor.of(Either.class);
    assertEquals(List.of("echo"), names(service));
    MethodBinding declared = service.methods().get(0);
    assertEquals("echo", service.servedForm(declared, SyncOnly.class).javaMethod().getName());
    assertEquals("echoAsync", service.servedForm(declared, AsyncOnly.class).javaMethod().getName());
    assertEquals("echoAsync", service.servedForm(declared, Both.class).javaMethod().getName());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> service.servedForm(declared, Neither.class));
    assertTrue(e.getMessage().contains("implements neither echo nor echoAsync"), e.getMessage());
  }

  @Test
  void anAbstractSyncFormIsServedUnlessTheAsyncFormIsProvided() throws Exception {
    ServiceDescriptor service = ServiceDescriptor.of(Greeter.class);
    MethodBinding declared = service.methods().get(0);
    class Plain implements Greeter {
      @Override
      public StringValue sayHello(StringValue request) {
        return request;
      }
    }
    assertEquals("sayHello", service.servedForm(declared, Plain.class).javaMethod().getName());
    assertNull(service.binding(Object.class.getMethod("toString")));
  }

  private static List<String> names(ServiceDescriptor service) {
    return service.methods().stream().map(b -> b.descriptor().methodName()).collect(Collectors.toList());
  }
}
