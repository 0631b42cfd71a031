package io.triplerpc.conformance;

import connectrpc.conformance.v1.Service.BidiStreamRequest;
import connectrpc.conformance.v1.Service.BidiStreamResponse;
import connectrpc.conformance.v1.Service.ClientStreamRequest;
import connectrpc.conformance.v1.Service.ClientStreamResponse;
import connectrpc.conformance.v1.Service.IdempotentUnaryRequest;
import connectrpc.conformance.v1.Service.IdempotentUnaryResponse;
import connectrpc.conformance.v1.Service.ServerStreamRequest;
import connectrpc.conformance.v1.Service.ServerStreamResponse;
import connectrpc.conformance.v1.Service.UnaryRequest;
import connectrpc.conformance.v1.Service.UnaryResponse;
import connectrpc.conformance.v1.Service.UnimplementedRequest;
import connectrpc.conformance.v1.Service.UnimplementedResponse;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** {@code connectrpc.conformance.v1.ConformanceService} of the suite's {@code service.proto}, as a Triple interface. */
@TripleService(name = "connectrpc.conformance.v1.ConformanceService")
public interface ConformanceService {

  @TripleMethod(name = "Unary")
  UnaryResponse unary(UnaryRequest request);

  @TripleMethod(name = "ServerStream")
  void serverStream(ServerStreamRequest request, StreamObserver<ServerStreamResponse> responses);

  @TripleMethod(name = "ClientStream", clientStreaming = true)
  StreamObserver<ClientStreamRequest> clientStream(StreamObserver<ClientStreamResponse> response);

  @TripleMethod(name = "BidiStream")
  StreamObserver<BidiStreamRequest> bidiStream(StreamObserver<BidiStreamResponse> responses);

  /** Declared so that clients can check that servers answer it with UNIMPLEMENTED. */
  @TripleMethod(name = "Unimplemented")
  UnimplementedResponse unimplemented(UnimplementedRequest request);

  /** {@code idempotency_level = NO_SIDE_EFFECTS}: the Connect protocol may call it with GET. */
  @TripleMethod(name = "IdempotentUnary", idempotent = true)
  IdempotentUnaryResponse idempotentUnary(IdempotentUnaryRequest request);
}
