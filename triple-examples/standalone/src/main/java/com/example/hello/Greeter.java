package com.example.hello;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** The service: its name and its methods' names are what gRPC clients and curl call. */
@TripleService(name = "hello.Greeter")
public interface Greeter {

  /** Unary: one request, one reply. */
  @TripleMethod(name = "SayHello")
  HelloReply sayHello(HelloRequest request);

  /** Server streaming: {@code count} replies to one request. */
  @TripleMethod(name = "LotsOfReplies")
  void lotsOfReplies(HelloRequest request, StreamObserver<HelloReply> replies);
}
