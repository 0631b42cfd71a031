package io.triplerpc.interop;

import io.grpc.testing.integration.EmptyProtos.Empty;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** {@code grpc.testing.UnimplementedService}: a service that no interop server serves. */
@TripleService(name = "grpc.testing.UnimplementedService")
public interface UnimplementedService {

  @TripleMethod(name = "UnimplementedCall")
  Empty unimplementedCall(Empty request);
}
