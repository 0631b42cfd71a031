package io.triplerpc.internal.reflection;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.internal.reflection.v1alpha.ServerReflectionRequest;
import io.triplerpc.internal.reflection.v1alpha.ServerReflectionResponse;

/** gRPC server reflection, {@code grpc.reflection.v1alpha}: what grpcurl and older tools ask first. */
@TripleService(name = "grpc.reflection.v1alpha.ServerReflection")
public interface ReflectionV1AlphaService {

  @TripleMethod(name = "ServerReflectionInfo")
  StreamObserver<ServerReflectionRequest> serverReflectionInfo(StreamObserver<ServerReflectionResponse> responses);
}
