package io.triplerpc.interop.dubbo;

import static io.triplerpc.interop.dubbo.DubboProcess.result;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.PlainService;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The peer's {@code --version} and {@code --group} reach Dubbo's exports and references, for the
 * version/group tests to build on: a versioned Dubbo consumer sends Dubbo's {@code tri-service-version}
 * and {@code tri-service-group} headers (which the Triple server, serving that export, sees as request
 * metadata), and a versioned Dubbo provider answers a call that carries them (added by hand here, as any
 * gRPC client would), and, by Dubbo's fallback, others.
 */
class DubboPeerOptionsTest {

  @Test
  void aVersionedDubboConsumerSendsItsVersionAndGroupAsHeaders() throws Exception {
    // Since main's version/group routing (e4279c3) Triple serves a version only if it exports it.
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PlainService.class, new TriplePlainService(), "1.0.0", "g1").build().start();
    try (DubboProcess dubbo = DubboProcess.consumer("127.0.0.1:" + server.port(), "--version=1.0.0", "--group=g1")) {
      assertEquals("1.0.0", result(dubbo.call(PlainService.class, "attachment", "tri-service-version"), String.class));
      assertEquals("g1", result(dubbo.call(PlainService.class, "attachment", "tri-service-group"), String.class));
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  /**
   * Dubbo 3.3.6's provider resolves a path by (interface, group, version), then (interface, group, no
   * version), then the interface alone, under which each export also registers (the first one wins):
   * {@code TriplePathResolver}, with {@code dubbo.rpc.tri.resolve-fallback-to-default} true by default.
   * So a call naming no version, or one the provider does not export, still reaches the export.
   */
  @Test
  void aVersionedDubboProviderAnswersItsVersionAndGroupAndFallsBackToItForOthers() throws Exception {
    try (DubboProcess dubbo = DubboProcess.provider("--version=1.0.0", "--group=g1");
        TripleClient client = TripleClient.builder().address("127.0.0.1", dubbo.port()).build()) {
      CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10));
      assertEquals("exact", client.proxy(PlainService.class,
          options.withInterceptors(new Headers("tri-service-version", "1.0.0", "tri-service-group", "g1"))).echo("exact"));
      assertEquals("none", client.proxy(PlainService.class, options).echo("none"));
      assertEquals("other", client.proxy(PlainService.class,
          options.withInterceptors(new Headers("tri-service-version", "9.9.9", "tri-service-group", "g9"))).echo("other"));
    }
  }
}
