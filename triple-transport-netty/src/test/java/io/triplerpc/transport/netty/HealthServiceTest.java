package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.HealthStatusManager.ServingStatus;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleServer;
import io.triplerpc.internal.health.HealthService;
import io.triplerpc.internal.health.proto.HealthCheckRequest;
import io.triplerpc.internal.health.proto.HealthCheckResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The built-in grpc.health.v1.Health service, called through the Triple client over a real socket. */
class HealthServiceTest {

  @RegisterExtension
  final EchoFixture fixture = new EchoFixture();

  private static HealthCheckRequest request(String service) {
    return HealthCheckRequest.newBuilder().setService(service).build();
  }

  @Test
  void theServerAndEachServiceStartServingAndUnknownServicesAreNotFound() {
    HealthService health = fixture.newClient(b -> b).proxy(HealthService.class);

    assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.check(request("")).getStatus());
    assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.check(request("triple.test.EchoService")).getStatus());
    StatusException unknown = assertThrows(StatusException.class, () -> health.check(request("no.such.Service")));
    assertEquals(Status.Code.NOT_FOUND, unknown.status().code());
  }

  @Test
  void theApplicationChangesTheStatusAndChecksSeeIt() {
    TripleServer server = fixture.server();
    HealthService health = fixture.newClient(b -> b).proxy(HealthService.class);

    server.health().setStatus("triple.test.EchoService", ServingStatus.NOT_SERVING);
    assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING,
        health.check(request("triple.test.EchoService")).getStatus());
    server.health().setStatus("custom", ServingStatus.SERVING);
    assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.check(request("custom")).getStatus());
    server.health().clearStatus("custom");
    assertThrows(StatusException.class, () -> health.check(request("custom")));
  }

  @Test
  void watchAnswersAtOnceThenEveryChangeAndShutdownTurnsItNotServing() throws Exception {
    TripleServer server = fixture.server();
    HealthService health = fixture.newClient(b -> b).proxy(HealthService.class);
    RecordingObserver<HealthCheckResponse> echo = new RecordingObserver<>();
    RecordingObserver<HealthCheckResponse> later = new RecordingObserver<>();

    health.watch(request("triple.test.EchoService"), echo);
    health.watch(request("later"), later);
    assertEquals(HealthCheckResponse.ServingStatus.SERVING, echo.awaitValue(0).getStatus());
    assertEquals(HealthCheckResponse.ServingStatus.SERVICE_UNKNOWN, later.awaitValue(0).getStatus());

    server.health().setStatus("triple.test.EchoService", ServingStatus.SERVING); // no change: no message
    server.health().setStatus("triple.test.EchoService", ServingStatus.NOT_SERVING);
    server.health().setStatus("later", ServingStatus.SERVING);
    assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING, echo.awaitValue(1).getStatus());
    assertEquals(HealthCheckResponse.ServingStatus.SERVING, later.awaitValue(1).getStatus());

    server.health().setStatus("triple.test.EchoService", ServingStatus.SERVING);
    assertEquals(HealthCheckResponse.ServingStatus.SERVING, echo.awaitValue(2).getStatus());
    server.shutdown();
    assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING, echo.awaitValue(3).getStatus());
    assertEquals(HealthCheckResponse.ServingStatus.NOT_SERVING, later.awaitValue(2).getStatus());
    // After the terminal state, changes are ignored.
    server.health().setStatus("later", ServingStatus.SERVING);
    assertEquals(4, echo.values().size());
    assertEquals(3, later.values().size());
  }
}
