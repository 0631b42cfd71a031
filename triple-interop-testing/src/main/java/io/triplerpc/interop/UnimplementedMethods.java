package io.triplerpc.interop;

import io.grpc.testing.integration.EmptyProtos.Empty;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** Methods the interop client calls to check that servers answer UNIMPLEMENTED. */
final class UnimplementedMethods {

  private UnimplementedMethods() {}

  /** {@code grpc.testing.TestService/UnimplementedCall}: declared in test.proto, served by nobody. */
  @TripleService(name = "grpc.testing.TestService")
  interface OnTestService {
    @TripleMethod(name = "UnimplementedCall")
    Empty unimplementedCall(Empty request);
  }

  /** {@code grpc.testing.UnimplementedService}: a service no interop server serves. */
  @TripleService(name = "grpc.testing.UnimplementedService")
  interface Service {
    @TripleMethod(name = "UnimplementedCall")
    Empty unimplementedCall(Empty request);
  }
}
