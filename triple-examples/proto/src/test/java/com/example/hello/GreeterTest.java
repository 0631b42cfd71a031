package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The generated Greeter, served by {@link Main}'s server on a free port and called through a proxy. */
class GreeterTest {

  private static TripleServer server;
  private static TripleClient client;
  private static Greeter greeter;

  @BeforeAll
  static void start() {
    server = Main.server().host("127.0.0.1").port(0).build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    greeter = client.proxy(Greeter.class);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    client.close();
    server.shutdown();
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "the server stopped");
  }

  @Test
  void sayHelloAnswersBothTheBlockingAndTheAsynchronousForm() throws Exception {
    HelloRequest ada = HelloRequest.newBuilder().setName("Ada").build();
    assertEquals("Hello, Ada!", greeter.sayHello(ada).getMessage());
    // GreeterImpl implements only sayHello; sayHelloAsync is the same RPC, answered in a future.
    assertEquals("Hello, Ada!", greeter.sayHelloAsync(ada).get(10, TimeUnit.SECONDS).getMessage());
  }

  @Test
  void theServersStatusReachesTheCaller() {
    StatusException e = assertThrows(StatusException.class, () -> greeter.sayHello(HelloRequest.getDefaultInstance()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code());
    assertEquals("name is required", e.status().description());
  }

  @Test
  void lotsOfRepliesStreams() throws Exception {
    List<String> messages = new ArrayList<>();
    CompletableFuture<List<String>> done = new CompletableFuture<>();
    greeter.lotsOfReplies(HelloRequest.newBuilder().setName("Ada").setCount(3).build(), new StreamObserver<>() {
      @Override
      public void onNext(HelloReply value) {
        messages.add(value.getMessage());
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(messages);
      }
    });
    assertEquals(List.of("Hello #1, Ada!", "Hello #2, Ada!", "Hello #3, Ada!"), done.get(10, TimeUnit.SECONDS));
  }
}
