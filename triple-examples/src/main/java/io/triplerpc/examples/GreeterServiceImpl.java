package io.triplerpc.examples;

import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.examples.greeter.Greeter;
import io.triplerpc.examples.greeter.HelloReply;
import io.triplerpc.examples.greeter.HelloRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo service's implementation, of the interface protoc-gen-triple generated from greeter.proto. It
 * implements the blocking form of SayHello; callers may still use either form.
 */
public final class GreeterServiceImpl implements Greeter {

  private final String instance;

  /** A greeter whose replies do not say who answered. */
  public GreeterServiceImpl() {
    this("");
  }

  /** A greeter whose replies carry {@code instance} in {@code served_by}. */
  public GreeterServiceImpl(String instance) {
    this.instance = instance;
  }

  @Override
  public HelloReply sayHello(HelloRequest request) {
    if (request.getName().isBlank()) {
      throw Status.INVALID_ARGUMENT.withDescription("name must not be blank").asException();
    }
    return reply("Hello, " + request.getName() + "!");
  }

  @Override
  public void lotsOfReplies(HelloRequest request, StreamObserver<HelloReply> replies) {
    for (int i = 1; i <= request.getCount(); i++) {
      replies.onNext(reply("Hello #" + i + ", " + request.getName() + "!"));
    }
    replies.onCompleted();
  }

  @Override
  public StreamObserver<HelloRequest> greetEveryone(StreamObserver<HelloReply> reply) {
    List<String> names = new ArrayList<>();
    return new StreamObserver<>() {
      @Override
      public void onNext(HelloRequest value) {
        names.add(value.getName());
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        reply.onNext(reply("Hello, " + String.join(" and ", names) + "!"));
        reply.onCompleted();
      }
    };
  }

  @Override
  public StreamObserver<HelloRequest> chat(StreamObserver<HelloReply> replies) {
    return new StreamObserver<>() {
      @Override
      public void onNext(HelloRequest value) {
        replies.onNext(reply("Hi " + value.getName() + ", nice to meet you."));
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        replies.onCompleted();
      }
    };
  }

  private HelloReply reply(String message) {
    return HelloReply.newBuilder().setMessage(message).setServedBy(instance).build();
  }
}
