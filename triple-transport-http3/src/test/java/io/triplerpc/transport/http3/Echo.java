package io.triplerpc.transport.http3;

import com.google.protobuf.BytesValue;
import com.google.protobuf.StringValue;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/**
 * What the HTTP/3 tests call, in protobuf's well-known wrappers so that the Go client needs no generated
 * code (src/test/go/h3client).
 */
@TripleService(name = "triple.http3.Echo")
public interface Echo {

  /** {@code echo <value>}. */
  @TripleMethod(name = "Unary")
  StringValue unary(StringValue request);

  /** {@code 0} to {@code n-1}, for a request {@code n}. */
  @TripleMethod(name = "ServerStream")
  void serverStream(StringValue count, StreamObserver<StringValue> responses);

  /** {@code echo <value>} for each request, as it comes. */
  @TripleMethod(name = "Bidi")
  StreamObserver<StringValue> bidi(StreamObserver<StringValue> responses);

  /** Fails with NOT_FOUND, the request as its message. */
  @TripleMethod(name = "Fail")
  StringValue fail(StringValue request);

  /** The bytes in upper case. */
  @TripleMethod(name = "Large")
  BytesValue large(BytesValue request);

  /** Answers when the test says so. */
  @TripleMethod(name = "Hold")
  CompletableFuture<StringValue> hold(StringValue request);
}
