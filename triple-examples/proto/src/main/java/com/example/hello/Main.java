package com.example.hello;

import io.triplerpc.TripleServer;
import java.time.Duration;

/** Serves {@link Greeter} on port 50051 (or the port given) until the process is stopped. */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws InterruptedException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 50051;
    TripleServer server = server().port(port).build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdown();   // GOAWAY: no new calls; the calls in flight finish
      try {
        server.awaitTermination(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }));
    System.out.println("hello.Greeter listening on port " + server.port());
    server.awaitTermination();
  }

  /** A server of {@link Greeter}, to give a port (and more) and start. */
  static TripleServer.Builder server() {
    return TripleServer.builder().addService(Greeter.class, new GreeterImpl());
  }
}
