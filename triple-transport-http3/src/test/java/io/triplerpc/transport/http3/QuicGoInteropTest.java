package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * connect-go v1.21.1 over quic-go v0.65.0's {@code http3.Transport} ({@code src/test/go/h3client}) calls a
 * Triple server over HTTP/3, trusting the test CA, in gRPC and in Connect (protobuf's JSON): unary,
 * server streaming, bidi (full duplex: each answer read before the next request), an error, and a
 * message of 4 MiB and 1 KiB each way. Skipped only where Go is not installed.
 */
class QuicGoInteropTest {

  private static final List<String> CASES = List.of("unary", "server-streaming", "bidi", "error", "large");

  @Test
  void connectGoOverQuicGoCallsTripleInGrpcAndConnect() throws Exception {
    String unavailable = QuicGoClient.unavailable();
    assumeTrue(unavailable == null, unavailable);
    Path client = QuicGoClient.build();
    TripleServer server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
            .build())
        .http3()
        .maxInboundMessageSize(16 << 20)
        .addService(Echo.class, new EchoImpl())
        .build()
        .start();
    try {
      Process process = new ProcessBuilder(client.toString(),
          "-addr", "127.0.0.1:" + server.port(), "-ca", TestCertificates.caCertificate().toString())
          .redirectErrorStream(true)
          .start();
      assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the quic-go client finished");
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      List<String> expected = new ArrayList<>();
      for (String protocol : List.of("grpc", "connect")) {
        for (String name : CASES) {
          expected.add("ok " + protocol + " " + name);
        }
      }
      assertEquals(expected, output.lines().toList(), output);
      assertEquals(0, process.exitValue(), output);
    } finally {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server terminated");
    }
  }
}
