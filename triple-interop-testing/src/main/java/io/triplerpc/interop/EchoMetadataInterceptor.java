package io.triplerpc.interop;

import io.triplerpc.ForwardingServerCall;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;

/**
 * Echoes {@code x-grpc-test-echo-initial} into the response headers and
 * {@code x-grpc-test-echo-trailing-bin} into the trailers, as the custom_metadata case expects.
 */
final class EchoMetadataInterceptor implements ServerInterceptor {

  static final String ECHO_INITIAL = "x-grpc-test-echo-initial";
  static final String ECHO_TRAILING = "x-grpc-test-echo-trailing-bin";

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String initial = headers.get(ECHO_INITIAL);
    byte[] trailing = headers.getBinary(ECHO_TRAILING);
    if (initial == null && trailing == null) {
      return next.startCall(call, headers);
    }
    return next.startCall(new ForwardingServerCall<>(call) {
      @Override
      public void sendHeaders(Metadata responseHeaders) {
        if (initial != null) {
          responseHeaders.put(ECHO_INITIAL, initial);
        }
        super.sendHeaders(responseHeaders);
      }

      @Override
      public void close(Status status, Metadata trailers) {
        if (trailing != null) {
          trailers.put(ECHO_TRAILING, trailing);
        }
        super.close(status, trailers);
      }
    }, headers);
  }
}
