package io.triplerpc.examples;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.triplerpc.CallOptions;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.examples.greeter.Greeter;
import io.triplerpc.examples.greeter.HelloReply;
import io.triplerpc.examples.greeter.HelloRequest;
import io.triplerpc.micrometer.TripleMetrics;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.Registration;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The README's demo: an embedded registry; a provider of the greeter on a free loopback port that
 * registers itself; a consumer that finds it through the registry and calls it in each call shape;
 * a second provider joining, and calls spreading over both; curl calling the same service (JSON over
 * HTTP/1.1 and HTTP/2). Prints each request, answer and the instance that served it, and a few call
 * metrics, then shuts down.
 */
public final class Demo {

  private Demo() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    // Metrics of every call, both sides, in one Micrometer registry; printed at the end.
    MeterRegistry metrics = new SimpleMeterRegistry();
    // The embedded registry: in this process, shared by the providers and the consumer below.
    try (InProcessRegistry registry = new InProcessRegistry()) {
      out.println("registry: embedded, in-process");
      List<TripleServer> providers = new ArrayList<>();
      try {
        TripleServer first = provider(registry, "provider-1", metrics, out);
        providers.add(first);
        try (TripleClient client = TripleClient.builder()
            .cluster(Discovery.using(registry).loadBalancing(LoadBalancing.ROUND_ROBIN).build())
            .callObserver(TripleMetrics.client(metrics))
            .build()) {
          callEveryShape(client, out);
          providers.add(provider(registry, "provider-2", metrics, out));
          spread(client.proxy(Greeter.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))), out);
          out.println("batching: " + client.writeStats());
        }
        curl(first.port(), out);
        printMetrics(metrics, out);
      } finally {
        for (TripleServer provider : providers) {
          provider.shutdown();
        }
        for (TripleServer provider : providers) {
          provider.awaitTermination(Duration.ofSeconds(10));
        }
      }
    }
    out.println("done");
  }

  /** Starts a greeter that registers itself as an instance of {@code greeter-app}. */
  private static TripleServer provider(InProcessRegistry registry, String name, MeterRegistry metrics, PrintStream out) {
    Registration registration = Registration.to(registry).application("greeter-app").build();
    TripleServer server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(Greeter.class, new GreeterServiceImpl(name))
        .registration(registration)
        .callObserver(TripleMetrics.server(metrics))
        .build()
        .start();
    out.println("provider: " + name + " serves triple.demo.Greeter on 127.0.0.1:" + server.port()
        + ", registered as greeter-app (revision " + registration.instance().revision() + ")");
    return server;
  }

  private static void callEveryShape(TripleClient client, PrintStream out) throws Exception {
    Greeter greeter = client.proxy(Greeter.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    out.println("consumer: found triple.demo.Greeter through the registry (greeter-app)");

    HelloRequest ada = HelloRequest.newBuilder().setName("Ada").build();
    HelloReply hello = greeter.sayHello(ada);
    out.println("unary   : SayHello(Ada) -> " + hello.getMessage() + " [" + hello.getServedBy() + "]");
    HelloReply later = greeter.sayHelloAsync(ada).get(10, TimeUnit.SECONDS);
    // The same RPC, called without blocking: sayHelloAsync is SayHello answered in a future.
    out.println("async   : SayHello(Ada) in a future -> " + later.getMessage() + " [" + later.getServedBy() + "]");

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
  }

  /** Once the registry has pushed the second provider, round robin alternates between the two. */
  private static void spread(Greeter greeter, PrintStream out) throws InterruptedException {
    HelloRequest ada = HelloRequest.newBuilder().setName("Ada").build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!greeter.sayHello(ada).getServedBy().equals("provider-2") && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    List<String> servedBy = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      servedBy.add(greeter.sayHello(ada).getServedBy());
    }
    out.println("spread  : SayHello(Ada) x6 -> " + String.join(", ", servedBy));
  }

  /** The same service on the same port, for anyone with curl: JSON over HTTP/1.1 and HTTP/2. */
  private static void curl(int port, PrintStream out) throws InterruptedException {
    String url = "http://127.0.0.1:" + port + "/triple.demo.Greeter/SayHello";
    for (String version : new String[] {"--http1.1", "--http2-prior-knowledge"}) {
      List<String> curl = List.of("curl", "-sS", version, "-H", "content-type: application/json",
          "-d", "{\"name\":\"Ada\"}", url);
      out.println("curl    : curl " + version + " -H 'content-type: application/json' -d '{\"name\":\"Ada\"}' " + url);
      out.println("          -> " + run(curl));
    }
  }

  /**
   * A few of the call metrics (gRPC's names, docs/observability.md) of SayHello, both providers together:
   * calls each protocol brought, and the duration of those that succeeded and failed, on the servers and
   * at the consumer.
   */
  private static void printMetrics(MeterRegistry metrics, PrintStream out) throws InterruptedException {
    String sayHello = "triple.demo.Greeter/SayHello";
    // A server tells its observers a call ended just after its client may have seen the answer.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (count(metrics, "grpc.server.call.duration", sayHello, null)
        < metrics.find("grpc.server.call.started").tag("grpc.method", sayHello).counters().stream()
            .mapToDouble(Counter::count).sum()
        && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    StringBuilder started = new StringBuilder();
    for (String protocol : new String[] {"grpc", "connect"}) {
      Counter counter = metrics.find("grpc.server.call.started")
          .tags("grpc.method", sayHello, "triple.protocol", protocol).counter();
      started.append(' ').append(protocol).append('=').append(counter == null ? 0 : (long) counter.count());
    }
    out.println("metrics : grpc.server.call.started{grpc.method=" + sayHello + "}" + started);
    for (String name : new String[] {"grpc.server.call.duration", "grpc.client.call.duration"}) {
      for (String status : new String[] {"OK", "INVALID_ARGUMENT"}) {
        long count = count(metrics, name, sayHello, status);
        double totalMillis = metrics.find(name).tags("grpc.method", sayHello, "grpc.status", status).timers().stream()
            .mapToDouble(timer -> timer.totalTime(TimeUnit.MILLISECONDS)).sum();
        out.printf(Locale.ROOT, "metrics : %s{grpc.method=%s,grpc.status=%s} count=%d mean=%.3f ms%n",
            name, sayHello, status, count, count == 0 ? 0 : totalMillis / count);
      }
    }
  }

  /** Calls of {@code method} that a timer counted, with {@code status} (or any, when null). */
  private static long count(MeterRegistry metrics, String timer, String method, String status) {
    Search search = metrics.find(timer).tag("grpc.method", method);
    if (status != null) {
      search = search.tag("grpc.status", status);
    }
    return search.timers().stream().mapToLong(Timer::count).sum();
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
    String servedBy = "";
    final CompletableFuture<String> done = new CompletableFuture<>();

    @Override
    public void onNext(HelloReply value) {
      if (replies.length() > 0) {
        replies.append(" | ");
      }
      replies.append(value.getMessage());
      servedBy = value.getServedBy();
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(replies + " [" + servedBy + "]");
    }
  }
}
