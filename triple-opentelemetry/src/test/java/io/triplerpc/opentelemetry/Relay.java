package io.triplerpc.opentelemetry;

import com.google.protobuf.StringValue;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/** One method of each call type, and one that never answers; protobuf messages, so grpc-java can call it. */
@TripleService(name = "triple.tracing.Relay")
public interface Relay {

  @TripleMethod(name = "Unary")
  StringValue unary(StringValue request);

  @TripleMethod(name = "ServerStream")
  void serverStream(StringValue request, StreamObserver<StringValue> responses);

  @TripleMethod(name = "ClientStream", clientStreaming = true)
  StreamObserver<StringValue> clientStream(StreamObserver<StringValue> response);

  @TripleMethod(name = "Bidi")
  StreamObserver<StringValue> bidi(StreamObserver<StringValue> responses);

  /** Answers only when its deadline has passed: never. */
  @TripleMethod(name = "Slow")
  CompletableFuture<StringValue> slow(StringValue request);

  static StringValue text(String value) {
    return StringValue.of(value);
  }
}
