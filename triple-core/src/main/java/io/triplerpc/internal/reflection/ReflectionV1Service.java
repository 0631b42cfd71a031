package io.triplerpc.internal.reflection;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.internal.reflection.v1.ServerReflectionRequest;
import io.triplerpc.internal.reflection.v1.ServerReflectionResponse;

/** gRPC server reflection, {@code grpc.reflection.v1}. */
@TripleService(name = "grpc.reflection.v1.ServerReflection")
public interface ReflectionV1Service {

  @TripleMethod(name = "ServerReflectionInfo")
  StreamObserver<ServerReflectionRequest> serverReflectionInfo(StreamObserver<ServerReflectionResponse> responses);
}
