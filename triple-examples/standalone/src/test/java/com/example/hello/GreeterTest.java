package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The greeter, served as {@link Main} serves it (on a free loopback port), called by a Triple client,
 * by curl over HTTP/1.1 and HTTP/2, and by grpcurl, which learns the service from server reflection.
 */
class GreeterTest {

  private static TripleServer server;
  private static TripleClient client;

  @BeforeAll
  static void start() {
    server = Main.server().host("127.0.0.1").port(0).build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "the server stopped");
    }
  }

  private static HelloRequest request(String name, int count) {
    return HelloRequest.newBuilder().setName(name).setCount(count).build();
  }

  @Test
  void aProxyOfTheInterfaceCallsTheServer() {
    Greeter greeter = client.proxy(Greeter.class);
    assertEquals("Hello, Ada!", greeter.sayHello(request("Ada", 0)).getMessage());
  }

  @Test
  void theAsyncFormCallsTheSameMethodWithoutWaiting() throws Exception {
    CompletableFuture<HelloReply> reply = client.proxy(Greeter.class).sayHelloAsync(request("Ada", 0));
    assertEquals("Hello, Ada!", reply.get(10, TimeUnit.SECONDS).getMessage());
  }

  @Test
  void aServiceErrorReachesTheProxyAsItsStatus() {
    StatusException error = assertThrows(StatusException.class, () -> client.proxy(Greeter.class).sayHello(request("", 0)));
    assertEquals(Status.Code.INVALID_ARGUMENT, error.status().code());
    assertEquals("name is required", error.status().description());
  }

  @Test
  void aProxyReceivesEveryStreamedReply() throws Exception {
    List<String> messages = new ArrayList<>();
    CompletableFuture<List<String>> done = new CompletableFuture<>();
    client.proxy(Greeter.class).lotsOfReplies(request("Ada", 3), new StreamObserver<>() {
      @Override
      public void onNext(HelloReply reply) {
        messages.add(reply.getMessage());
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

  /** curl with a JSON body; after the body, a line with the HTTP version curl used and the status. */
  private static Tools.Output curl(String httpVersionFlag, String json) throws Exception {
    Path curl = Tools.find("curl");
    assumeTrue(curl != null, "curl is not installed");
    return Tools.run(List.of(curl.toString(), "-s", "--max-time", "20", httpVersionFlag,
        "-H", "content-type: application/json", "-d", json, "-w", "\\n%{http_version} %{http_code}",
        "http://127.0.0.1:" + server.port() + "/hello.Greeter/SayHello"));
  }

  @Test
  void curlCallsItOverHttp1() throws Exception {
    Tools.Output output = curl("--http1.1", "{\"name\":\"Ada\"}");
    assertEquals(new Tools.Output(0, "{\"message\":\"Hello, Ada!\"}\n1.1 200"), output);
  }

  @Test
  void curlCallsItOverCleartextHttp2() throws Exception {
    Tools.Output output = curl("--http2-prior-knowledge", "{\"name\":\"Ada\"}");
    assertEquals(new Tools.Output(0, "{\"message\":\"Hello, Ada!\"}\n2 200"), output);
  }

  @Test
  void curlGetsTheServiceErrorAsJsonAndAnHttpStatus() throws Exception {
    Tools.Output output = curl("--http1.1", "{}");
    assertEquals(new Tools.Output(0, "{\"code\":\"invalid_argument\",\"message\":\"name is required\"}\n\n1.1 400"), output);
  }

  /** grpcurl over cleartext HTTP/2, with no .proto file: it asks the server's reflection service. */
  private static Tools.Output grpcurl(String... arguments) throws Exception {
    Path grpcurl = Tools.find("grpcurl");
    assumeTrue(grpcurl != null, "grpcurl is not installed (go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3)");
    List<String> command = new ArrayList<>(List.of(grpcurl.toString(), "-plaintext", "-max-time", "20"));
    for (String argument : arguments) {
      command.add(argument.equals("ADDRESS") ? "127.0.0.1:" + server.port() : argument);
    }
    return Tools.run(command);
  }

  @Test
  void grpcurlListsTheServiceThroughReflection() throws Exception {
    Tools.Output list = grpcurl("ADDRESS", "list");
    assertEquals(0, list.exitCode(), list.text());
    assertTrue(list.text().lines().toList().contains("hello.Greeter"), list.text());

    Tools.Output describe = grpcurl("ADDRESS", "describe", "hello.Greeter");
    assertEquals(0, describe.exitCode(), describe.text());
    assertTrue(describe.text().contains("rpc SayHello ( .hello.HelloRequest ) returns ( .hello.HelloReply );"), describe.text());
    assertTrue(describe.text().contains("rpc LotsOfReplies ( .hello.HelloRequest ) returns ( stream .hello.HelloReply );"),
        describe.text());
  }

  @Test
  void grpcurlCallsUnaryAndStreamingMethods() throws Exception {
    Tools.Output unary = grpcurl("-d", "{\"name\": \"Ada\"}", "ADDRESS", "hello.Greeter/SayHello");
    assertEquals(new Tools.Output(0, "{\n  \"message\": \"Hello, Ada!\"\n}\n"), unary);

    Tools.Output streaming = grpcurl("-d", "{\"name\": \"Ada\", \"count\": 2}", "ADDRESS", "hello.Greeter/LotsOfReplies");
    assertEquals(new Tools.Output(0, "{\n  \"message\": \"Hello #1, Ada!\"\n}\n{\n  \"message\": \"Hello #2, Ada!\"\n}\n"),
        streaming);
  }

  @Test
  void grpcurlGetsTheServiceErrorAsItsStatus() throws Exception {
    Tools.Output error = grpcurl("-d", "{}", "ADDRESS", "hello.Greeter/SayHello");
    assertEquals(new Tools.Output(67, "ERROR:\n  Code: InvalidArgument\n  Message: name is required\n"), error);
  }
}
