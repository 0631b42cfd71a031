package io.triplerpc.opentelemetry;

import static io.triplerpc.opentelemetry.Relay.text;

import com.google.protobuf.StringValue;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The last hop: answers every call itself, prefixing {@code b:}. A unary request {@code status:CODE}
 * fails with that code, {@code throw} with an exception that is no status.
 */
class EchoRelay implements Relay {

  final Queue<Seen> seen = new ConcurrentLinkedQueue<>();

  @Override
  public StringValue unary(StringValue request) {
    seen.add(Seen.now());
    return text("b:" + answer(request.getValue()));
  }

  /** {@code value}, unless it asks for a failure. */
  static String answer(String value) {
    if (value.startsWith("status:")) {
      Status.Code code = Status.Code.valueOf(value.substring("status:".length()));
      throw code.toStatus().withDescription("asked for " + code).asException();
    }
    if (value.equals("throw")) {
      throw new IllegalStateException("asked to throw");
    }
    return value;
  }

  @Override
  public void serverStream(StringValue request, StreamObserver<StringValue> responses) {
    seen.add(Seen.now());
    for (int i = 1; i <= 3; i++) {
      responses.onNext(text("b:" + request.getValue() + "#" + i));
    }
    responses.onCompleted();
  }

  @Override
  public StreamObserver<StringValue> clientStream(StreamObserver<StringValue> response) {
    seen.add(Seen.now());
    StringBuilder all = new StringBuilder("b:");
    return new StreamObserver<>() {
      @Override
      public void onNext(StringValue value) {
        seen.add(Seen.now());
        all.append(value.getValue());
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        response.onNext(text(all.toString()));
        response.onCompleted();
      }
    };
  }

  @Override
  public StreamObserver<StringValue> bidi(StreamObserver<StringValue> responses) {
    seen.add(Seen.now());
    return new StreamObserver<>() {
      @Override
      public void onNext(StringValue value) {
        seen.add(Seen.now());
        responses.onNext(text("b:" + value.getValue()));
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        responses.onCompleted();
      }
    };
  }

  @Override
  public CompletableFuture<StringValue> slow(StringValue request) {
    seen.add(Seen.now());
    return new CompletableFuture<>();
  }
}
