package io.triplerpc.examples;

import io.triplerpc.CallOptions;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.examples.greeter.HelloReply;
import io.triplerpc.examples.greeter.HelloRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The README's demo: starts a server with the greeter on a free loopback port, calls it with a
 * Triple client in each of the four call shapes and with curl (JSON over HTTP/1.1 and HTTP/2), prints
 * each request and answer, and shuts down.
 */
public final class Demo {

  private Demo() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    TripleServer server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(GreeterService.class, new GreeterServiceImpl())
        .build()
        .start();
    out.println("server  : triple.demo.Greeter listening on 127.0.0.1:" + server.port());

    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      GreeterService greeter = client.proxy(GreeterService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));

      HelloRequest ada = HelloRequest.newBuilder().setName("Ada").build();
      out.println("unary   : SayHello(Ada) -> " + greeter.sayHello(ada).getMessage());
      out.println("async   : SayHelloAsync(Ada) -> " + greeter.sayHelloAsync(ada).get(10, TimeUnit.SECONDS).getMessage());

      Collector stream = new Collector();
      greeter.lotsOfReplies(HelloRequest.newBuilder().setName("Grace").setCount(3).build(), stream);
      out.println("stream  : LotsOfReplies(Grace, 3) -> " + stream.done.get(10, TimeUnit.SECONDS));

      Collector everyone = new Collector();
      StreamObserver<HelloRequest> names = greeter.greetEveryone(everyone);
      for (String name : new String[] {"Alan", "Barbara", "Edsger"}) {
        names.onNext(HelloRequest.newBuilder().setName(name).build());
      }
      names.onCompleted();
      out.println("client  : GreetEveryone(Alan, Barbara, Edsger) -> " + everyone.done.get(10, TimeUnit.SECONDS));

      Collector chat = new Collector();
      StreamObserver<HelloRequest> talk = greeter.chat(chat);
      talk.onNext(HelloRequest.newBuilder().setName("Linus").build());
      talk.onNext(HelloRequest.newBuilder().setName("Margaret").build());
      talk.onCompleted();
      out.println("bidi    : Chat(Linus, Margaret) -> " + chat.done.get(10, TimeUnit.SECONDS));

      try {
        greeter.sayHello(HelloRequest.newBuilder().setName(" ").build());
      } catch (StatusException e) {
        out.println("error   : SayHello(\" \") -> " + e.status().code() + ": " + e.status().description());
      }
      out.println("batching: " + client.writeStats());

      // The same service on the same port, for anyone with curl: JSON over HTTP/1.1 and HTTP/2.
      String url = "http://127.0.0.1:" + server.port() + "/triple.demo.Greeter/SayHello";
      for (String version : new String[] {"--http1.1", "--http2-prior-knowledge"}) {
        List<String> curl = List.of("curl", "-sS", version, "-H", "content-type: application/json",
            "-d", "{\"name\":\"Ada\"}", url);
        out.println("curl    : curl " + version + " -H 'content-type: application/json' -d '{\"name\":\"Ada\"}' " + url);
        out.println("          -> " + run(curl));
      }
    } finally {
      server.shutdown();
      server.awaitTermination(Duration.ofSeconds(10));
    }
    out.println("done");
  }

  /** Runs a command and returns what it printed, or why it could not run. */
  private static String run(List<String> command) throws InterruptedException {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "(timed out)";
      }
      return process.exitValue() == 0 ? output : "(exit " + process.exitValue() + ") " + output;
    } catch (IOException e) {
      return "(not run: " + e.getMessage() + ")";
    }
  }

  /** Collects streamed replies into one line. */
  private static final class Collector implements StreamObserver<HelloReply> {
    final StringBuilder replies = new StringBuilder();
    final CompletableFuture<String> done = new CompletableFuture<>();

    @Override
    public void onNext(HelloReply value) {
      if (replies.length() > 0) {
        replies.append(" | ");
      }
      replies.append(value.getMessage());
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(replies.toString());
    }
  }
}
