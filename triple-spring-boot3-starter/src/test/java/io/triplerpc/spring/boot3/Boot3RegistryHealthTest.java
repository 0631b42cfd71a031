package io.triplerpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.spring.boot3.internal.TripleRegistryHealthIndicator;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/** The registry's health in Boot 3's types: UP with the applications found, DOWN with the reason. */
class Boot3RegistryHealthTest {

  @Test
  void upWithTheApplicationsThatServeTheProbedService() {
    try (InProcessRegistry registry = new InProcessRegistry()) {
      registry.map("test.Greeter", "greeter-app").join();
      Health health = new TripleRegistryHealthIndicator(registry, "test.Greeter").health();
      assertEquals(Status.UP, health.getStatus());
      assertEquals(Set.of("greeter-app"), health.getDetails().get("applications"));
      assertEquals("test.Greeter", health.getDetails().get("service"));
    }
  }

  @Test
  void downWithTheErrorWhenTheRegistryDoesNotAnswer() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    try (RemoteRegistry registry = RemoteRegistry.connect("127.0.0.1", closedPort)) {
      Health health = new TripleRegistryHealthIndicator(registry, "test.Greeter").health();
      assertEquals(Status.DOWN, health.getStatus());
      assertTrue(health.getDetails().containsKey("error"), health.toString());
      assertEquals("test.Greeter", health.getDetails().get("service"));
    }
  }
}
