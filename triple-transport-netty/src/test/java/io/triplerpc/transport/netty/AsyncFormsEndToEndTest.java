package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code foo} and {@code fooAsync} over a real socket: one wire method, called blocking or asynchronously,
 * served by whichever form the implementation provides.
 */
class AsyncFormsEndToEndTest {

  /** Both forms default, each calling the other, as generated interfaces declare them. */
  @TripleService(name = "test.Greeter")
  public interface Greeter {
    @TripleMethod(name = "SayHello")
    default StringValue sayHello(StringValue request) {
      try {
        return sayHelloAsync(request).join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
      }
    }

    default CompletableFuture<StringValue> sayHelloAsync(StringValue request) {
      try {
        return CompletableFuture.completedFuture(sayHello(request));
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }

    /** Plain Java types: the exception the service throws reaches either form as itself. */
    String greet(String name) throws UnknownName;

    default CompletableFuture<String> greetAsync(String name) {
      try {
        return CompletableFuture.completedFuture(greet(name));
      } catch (UnknownName e) {
        return CompletableFuture.failedFuture(e);
      }
    }
  }

  public static class UnknownName extends Exception {
    private static final long serialVersionUID = 1L;

    public UnknownName(String message) {
      super(message);
    }
  }

  /** The same service as a caller from elsewhere sees it: only the wire name it would try. */
  @TripleService(name = "test.Greeter")
  public interface OldClient {
    @TripleMethod(name = "sayHelloAsync")
    StringValue sayHelloAsync(StringValue request);
  }

  static final class SyncGreeter implements Greeter {
    @Override
    public StringValue sayHello(StringValue request) {
      return StringValue.of("sync: hello " + request.getValue());
    }

    @Override
    public String greet(String name) throws UnknownName {
      if (name.isEmpty()) {
        throw new UnknownName("sync: who?");
      }
      return "sync: hi " + name;
    }
  }

  static final class AsyncGreeter implements Greeter {
    @Override
    public CompletableFuture<StringValue> sayHelloAsync(StringValue request) {
      if (request.getValue().isEmpty()) {
        return CompletableFuture.failedFuture(Status.INVALID_ARGUMENT.withDescription("async: no name").asException());
      }
      return CompletableFuture.supplyAsync(() -> StringValue.of("async: hello " + request.getValue()));
    }

    @Override
    public String greet(String name) throws UnknownName {
      return "sync: hi " + name;
    }

    @Override
    public CompletableFuture<String> greetAsync(String name) {
      if (name.isEmpty()) {
        return CompletableFuture.failedFuture(new UnknownName("async: who?"));
      }
      return CompletableFuture.completedFuture("async: hi " + name);
    }
  }

  private final List<AutoCloseable> resources = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable resource : resources) {
      resource.close();
    }
  }

  private Greeter serve(Greeter implementation) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Greeter.class, implementation).build().start();
    resources.add(() -> {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    });
    TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    resources.add(0, client);
    return client.proxy(Greeter.class);
  }

  @Test
  void aServiceImplementingTheSyncFormAnswersBothForms() throws Exception {
    Greeter greeter = serve(new SyncGreeter());
    assertEquals("sync: hello Ada", greeter.sayHello(StringValue.of("Ada")).getValue());
    assertEquals("sync: hello Bob", greeter.sayHelloAsync(StringValue.of("Bob")).get(10, TimeUnit.SECONDS).getValue());
    assertEquals("sync: hi Ada", greeter.greet("Ada"));
    assertEquals("sync: hi Bob", greeter.greetAsync("Bob").get(10, TimeUnit.SECONDS));
    assertEquals("sync: who?", assertThrows(UnknownName.class, () -> greeter.greet("")).getMessage());
    ExecutionException failed = assertThrows(ExecutionException.class, () -> greeter.greetAsync("").get(10, TimeUnit.SECONDS));
    assertEquals("sync: who?", assertInstance(UnknownName.class, failed.getCause()).getMessage());
  }

  @Test
  void aServiceImplementingOnlyTheAsyncFormAnswersBothForms() throws Exception {
    Greeter greeter = serve(new AsyncGreeter());
    assertEquals("async: hello Ada", greeter.sayHello(StringValue.of("Ada")).getValue());
    assertEquals("async: hello Bob", greeter.sayHelloAsync(StringValue.of("Bob")).get(10, TimeUnit.SECONDS).getValue());
    // It provides both forms of greet: the asynchronous one serves.
    assertEquals("async: hi Ada", greeter.greet("Ada"));
    assertEquals("async: who?", assertThrows(UnknownName.class, () -> greeter.greet("")).getMessage());
    StatusException refused = assertThrows(StatusException.class, () -> greeter.sayHello(StringValue.of("")));
    assertEquals(Status.Code.INVALID_ARGUMENT, refused.status().code());
    assertEquals("async: no name", refused.status().description());
  }

  @Test
  void theAsyncFormIsNoWireMethodOfItsOwn() {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Greeter.class, new SyncGreeter()).build().start();
    resources.add(() -> {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    });
    TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    resources.add(0, client);
    StatusException e = assertThrows(StatusException.class,
        () -> client.proxy(OldClient.class).sayHelloAsync(StringValue.of("Ada")));
    assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
  }

  @Test
  void anImplementationOfNeitherFormIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TripleServer.builder().port(0).addService(Greeter.class, new Greeter() {
          @Override
          public String greet(String name) {
            return name;
          }
        }).build());
    assertTrue(e.getMessage().contains("implements neither sayHello nor sayHelloAsync"), e.getMessage());
  }

  private static <T> T assertInstance(Class<T> type, Throwable thrown) {
    assertTrue(type.isInstance(thrown), "expected " + type.getName() + " but was " + thrown);
    return type.cast(thrown);
  }
}
