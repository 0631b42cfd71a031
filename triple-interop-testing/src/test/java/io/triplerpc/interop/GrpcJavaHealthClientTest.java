package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.triplerpc.HealthStatusManager;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** grpc-java's health client (grpc-services' generated stubs) against Triple's built-in health service. */
class GrpcJavaHealthClientTest {

  private TripleServer server;
  private ManagedChannel channel;

  @BeforeEach
  void start() {
    server = InteropServer.start("127.0.0.1", 0);
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private static HealthCheckRequest request(String service) {
    return HealthCheckRequest.newBuilder().setService(service).build();
  }

  @Test
  void checkAndWatch() {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    assertEquals(ServingStatus.SERVING, health.check(request("")).getStatus());
    assertEquals(ServingStatus.SERVING, health.check(request("grpc.testing.TestService")).getStatus());
    StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class, () -> health.check(request("nope")));
    assertEquals(io.grpc.Status.Code.NOT_FOUND, unknown.getStatus().getCode());

    Iterator<io.grpc.health.v1.HealthCheckResponse> watch = health.watch(request("grpc.testing.TestService"));
    assertEquals(ServingStatus.SERVING, watch.next().getStatus());
    server.health().setStatus("grpc.testing.TestService", HealthStatusManager.ServingStatus.NOT_SERVING);
    assertEquals(ServingStatus.NOT_SERVING, watch.next().getStatus());
    assertEquals(ServingStatus.NOT_SERVING, health.check(request("grpc.testing.TestService")).getStatus());
  }
}
