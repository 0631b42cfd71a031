package io.triplerpc.opentelemetry;

import com.google.protobuf.StringValue;
import io.triplerpc.StreamObserver;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The middle hop: serves each call by making the same kind of call to {@code next} and relaying what
 * comes back, so that every call type crosses two hops. A unary request that asks for a failure fails
 * here, before reaching {@code next}.
 */
class ForwardingRelay implements Relay {

  final Queue<Seen> seen = new ConcurrentLinkedQueue<>();
  private final Relay next;

  ForwardingRelay(Relay next) {
    this.next = next;
  }

  @Override
  public StringValue unary(StringValue request) {
    seen.add(Seen.now());
    EchoRelay.answer(request.getValue());
    return next.unary(request);
  }

  @Override
  public void serverStream(StringValue request, StreamObserver<StringValue> responses) {
    seen.add(Seen.now());
    next.serverStream(request, relayTo(responses));
  }

  @Override
  public StreamObserver<StringValue> clientStream(StreamObserver<StringValue> response) {
    seen.add(Seen.now());
    return recording(next.clientStream(relayTo(response)));
  }

  @Override
  public StreamObserver<StringValue> bidi(StreamObserver<StringValue> responses) {
    seen.add(Seen.now());
    return recording(next.bidi(relayTo(responses)));
  }

  @Override
  public CompletableFuture<StringValue> slow(StringValue request) {
    seen.add(Seen.now());
    return new CompletableFuture<>();
  }

  /** Passes each request on to {@code requests}, noting what the service saw when it arrived. */
  private StreamObserver<StringValue> recording(StreamObserver<StringValue> requests) {
    return new StreamObserver<>() {
      @Override
      public void onNext(StringValue value) {
        seen.add(Seen.now());
        requests.onNext(value);
      }

      @Override
      public void onError(Throwable t) {
        requests.onError(t);
      }

      @Override
      public void onCompleted() {
        requests.onCompleted();
      }
    };
  }

  private static StreamObserver<StringValue> relayTo(StreamObserver<StringValue> out) {
    return new StreamObserver<>() {
      @Override
      public void onNext(StringValue value) {
        out.onNext(value);
      }

      @Override
      public void onError(Throwable t) {
        out.onError(t);
      }

      @Override
      public void onCompleted() {
        out.onCompleted();
      }
    };
  }
}
