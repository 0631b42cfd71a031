package com.example.hello;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;

/** Greets by name: the interface Greeter is generated from hello.proto. */
public final class GreeterImpl implements Greeter {

  @Override
  public HelloReply sayHello(HelloRequest request) {
    if (request.getName().isEmpty()) {
      // The caller sees this status: INVALID_ARGUMENT over gRPC, 400 over HTTP.
      throw new StatusException(Status.INVALID_ARGUMENT.withDescription("name is required"));
    }
    return HelloReply.newBuilder().setMessage("Hello, " + request.getName() + "!").build();
  }

  @Override
  public void lotsOfReplies(HelloRequest request, StreamObserver<HelloReply> replies) {
    for (int i = 1; i <= request.getCount(); i++) {
      replies.onNext(HelloReply.newBuilder().setMessage("Hello #" + i + ", " + request.getName() + "!").build());
    }
    replies.onCompleted();
  }
}
