package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.PlainService;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Versions and groups across Triple and a real Dubbo 3.3.6, both ways: one interface exported several
 * times (none, 1.0.0/g1, 2.0.0), each export answering {@code whoami()} with its own label; callers on the
 * other side pick exports with their version and group ({@code tri-service-version},
 * {@code tri-service-group}).
 */
class DubboServiceExportsTest {

  @Test
  void dubboConsumersReachTheTripleExportTheyName() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PlainService.class, new TriplePlainService("default"))
        .addService(PlainService.class, new TriplePlainService("v1g1"), "1.0.0", "g1")
        .addService(PlainService.class, new TriplePlainService("v2"), "2.0.0", "")
        .build().start();
    String address = "127.0.0.1:" + server.port();
    try {
      assertEquals("default", whoami(address));
      assertEquals("v1g1", whoami(address, "--version=1.0.0", "--group=g1"));
      assertEquals("v2", whoami(address, "--version=2.0.0"));
      try (DubboProcess dubbo = DubboProcess.consumer(address, "--version=9.9.9", "--group=g1")) {
        JsonNode answer = dubbo.call(PlainService.class, "whoami");
        assertFalse(answer.path("ok").asBoolean(), answer::toString);
        assertEquals("UNIMPLEMENTED", answer.path("status").asText(), answer::toString);
        assertTrue(answer.path("description").asText().contains("not served with version 9.9.9, group g1"),
            answer::toString);
      }
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private static String whoami(String address, String... options) throws Exception {
    try (DubboProcess dubbo = DubboProcess.consumer(address, options)) {
      return result(dubbo.call(PlainService.class, "whoami"), String.class);
    }
  }

  @Test
  void tripleCallersReachTheDubboExportTheyName() throws Exception {
    try (DubboProcess dubbo = DubboProcess.provider("--also-export=1.0.0:g1:v1g1,2.0.0::v2");
        TripleClient client = TripleClient.builder().address("127.0.0.1", dubbo.port()).build()) {
      CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10));
      assertEquals("default", client.proxy(PlainService.class, options).whoami());
      assertEquals("v1g1", client.proxy(PlainService.class,
          options.withServiceVersion("1.0.0").withServiceGroup("g1")).whoami());
      assertEquals("v2", client.proxy(PlainService.class, options.withServiceVersion("2.0.0")).whoami());
      // One client, several exports: the options of each proxy, not of the connection, decide.
      assertEquals("v1g1", client.proxy(PlainService.class,
          options.withServiceVersion("1.0.0").withServiceGroup("g1")).whoami());
    }
  }
}
