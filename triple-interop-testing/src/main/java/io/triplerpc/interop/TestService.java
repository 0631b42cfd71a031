package io.triplerpc.interop;

import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.Messages.StreamingInputCallRequest;
import io.grpc.testing.integration.Messages.StreamingInputCallResponse;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallResponse;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** {@code grpc.testing.TestService} of gRPC's {@code test.proto}, as a Triple interface. */
@TripleService(name = "grpc.testing.TestService")
public interface TestService {

  @TripleMethod(name = "EmptyCall")
  Empty emptyCall(Empty request);

  @TripleMethod(name = "UnaryCall")
  SimpleResponse unaryCall(SimpleRequest request);

  @TripleMethod(name = "CacheableUnaryCall")
  SimpleResponse cacheableUnaryCall(SimpleRequest request);

  @TripleMethod(name = "StreamingOutputCall")
  void streamingOutputCall(StreamingOutputCallRequest request, StreamObserver<StreamingOutputCallResponse> responses);

  @TripleMethod(name = "StreamingInputCall", clientStreaming = true)
  StreamObserver<StreamingInputCallRequest> streamingInputCall(StreamObserver<StreamingInputCallResponse> response);

  @TripleMethod(name = "FullDuplexCall")
  StreamObserver<StreamingOutputCallRequest> fullDuplexCall(StreamObserver<StreamingOutputCallResponse> responses);

  @TripleMethod(name = "HalfDuplexCall")
  StreamObserver<StreamingOutputCallRequest> halfDuplexCall(StreamObserver<StreamingOutputCallResponse> responses);

  /** Declared by test.proto so that clients can check that servers answer it with UNIMPLEMENTED. */
  @TripleMethod(name = "UnimplementedCall")
  Empty unimplementedCall(Empty request);
}
