package io.triplerpc.examples;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.examples.greeter.HelloReply;
import io.triplerpc.examples.greeter.HelloRequest;
import java.util.concurrent.CompletableFuture;

/** The demo service: one interface, every kind of call. */
@TripleService(name = "triple.demo.Greeter")
public interface GreeterService {

  /** Unary, synchronous; idempotent, so Connect clients (and curl) may call it with GET. */
  @TripleMethod(name = "SayHello", idempotent = true)
  HelloReply sayHello(HelloRequest request);

  /** Unary, asynchronous. */
  @TripleMethod(name = "SayHelloAsync")
  CompletableFuture<HelloReply> sayHelloAsync(HelloRequest request);

  /** Server streaming: {@code count} greetings. */
  @TripleMethod(name = "LotsOfReplies")
  void lotsOfReplies(HelloRequest request, StreamObserver<HelloReply> replies);

  /** Client streaming: one greeting for everybody. */
  @TripleMethod(name = "GreetEveryone", clientStreaming = true)
  StreamObserver<HelloRequest> greetEveryone(StreamObserver<HelloReply> reply);

  /** Bidi streaming: a greeting per name, as the names come. */
  @TripleMethod(name = "Chat")
  StreamObserver<HelloRequest> chat(StreamObserver<HelloReply> replies);
}
