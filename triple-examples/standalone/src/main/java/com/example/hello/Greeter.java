package com.example.hello;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/** The service: its name and its methods' names are what gRPC clients and curl call. */
@TripleService(name = "hello.Greeter")
public interface Greeter {

  /** Unary: one request, one reply. */
  @TripleMethod(name = "SayHello")
  HelloReply sayHello(HelloRequest request);

  /**
   * The same RPC, SayHello, for callers that want a future instead of waiting. An implementation
   * overrides either form or both; this default answers from the blocking one.
   */
  default CompletableFuture<HelloReply> sayHelloAsync(HelloRequest request) {
    return CompletableFuture.completedFuture(sayHello(request));
  }

  /** Server streaming: {@code count} replies to one request. */
  @TripleMethod(name = "LotsOfReplies")
  void lotsOfReplies(HelloRequest request, StreamObserver<HelloReply> replies);
}
