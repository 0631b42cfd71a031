package io.triplerpc.interop.dubbo.api;

import io.triplerpc.interop.dubbo.proto.EchoReply;
import io.triplerpc.interop.dubbo.proto.EchoRequest;
import org.apache.dubbo.common.stream.StreamObserver;

/**
 * The protobuf half of the interop services, as a Dubbo application declares it without generated
 * stubs: messages travel as plain protobuf. Triple's tests declare it under the same name.
 */
public interface ProtoService {

  /**
   * {@code "unary:" + text}; a text of {@code "invalid"} fails with status INVALID_ARGUMENT, one of
   * {@code "crash"} with a runtime exception.
   */
  EchoReply unary(EchoRequest request);

  /** {@code count} replies {@code text#1..n}, index 1..n. */
  void serverStream(EchoRequest request, StreamObserver<EchoReply> out);

  /** Client streaming (bidi in Dubbo's shape): one reply, the texts joined with "+", index the count. */
  StreamObserver<EchoRequest> clientStream(StreamObserver<EchoReply> out);

  /** Bidi streaming: a reply {@code "echo:" + text} for each request at once, index 1..n. */
  StreamObserver<EchoRequest> bidi(StreamObserver<EchoReply> out);
}
