package io.triplerpc.internal.health;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.internal.health.proto.HealthCheckRequest;
import io.triplerpc.internal.health.proto.HealthCheckResponse;

/** The health service as gRPC's health-checking protocol defines it. */
@TripleService(name = "grpc.health.v1.Health")
public interface HealthService {

  @TripleMethod(name = "Check")
  HealthCheckResponse check(HealthCheckRequest request);

  @TripleMethod(name = "Watch")
  void watch(HealthCheckRequest request, StreamObserver<HealthCheckResponse> responses);
}
