package com.example.hello;

import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/**
 * The service: one interface for the server, Triple clients, gRPC clients and curl. {@code greetAsync} is
 * the same wire method as {@code greet}, for callers that want a future.
 */
@TripleService(name = "hello.Greeter")
public interface Greeter {

  /** A greeting for {@code name}. */
  Greeting greet(String name);

  /** {@link #greet}, answered as a future. */
  default CompletableFuture<Greeting> greetAsync(String name) {
    return CompletableFuture.completedFuture(greet(name));
  }

  /** What {@link #greet} answers. */
  record Greeting(String message, int length) {}
}
