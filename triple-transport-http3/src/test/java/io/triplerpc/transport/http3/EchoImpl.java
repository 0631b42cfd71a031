package io.triplerpc.transport.http3;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.StringValue;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/** {@link Echo}; the calls to {@code Hold} wait in {@link #held} until the test completes them. */
final class EchoImpl implements Echo {

  final BlockingQueue<CompletableFuture<StringValue>> held = new LinkedBlockingQueue<>();

  @Override
  public StringValue unary(StringValue request) {
    return StringValue.of("echo " + request.getValue());
  }

  @Override
  public void serverStream(StringValue count, StreamObserver<StringValue> responses) {
    int n = Integer.parseInt(count.getValue());
    for (int i = 0; i < n; i++) {
      responses.onNext(StringValue.of(Integer.toString(i)));
    }
    responses.onCompleted();
  }

  @Override
  public StreamObserver<StringValue> bidi(StreamObserver<StringValue> responses) {
    return new StreamObserver<>() {
      @Override
      public void onNext(StringValue value) {
        responses.onNext(StringValue.of("echo " + value.getValue()));
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
  public StringValue fail(StringValue request) {
    throw Status.NOT_FOUND.withDescription(request.getValue()).asException();
  }

  @Override
  public BytesValue large(BytesValue request) {
    String upper = request.getValue().toString(StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
    return BytesValue.of(ByteString.copyFrom(upper, StandardCharsets.ISO_8859_1));
  }

  @Override
  public CompletableFuture<StringValue> hold(StringValue request) {
    CompletableFuture<StringValue> answer = new CompletableFuture<>();
    held.add(answer);
    return answer;
  }
}
