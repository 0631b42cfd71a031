package io.triplerpc.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.micrometer.testing.Ping;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a Prometheus scrape shows: A66's names with underscores and unit suffixes, as grpc-java's
 * OpenTelemetry module gives them through OpenTelemetry's Prometheus exporter, and the gauges.
 */
class PrometheusNamesTest {

  @Test
  void aScrapeShowsA66NamesWithPrometheusSuffixes() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricsRecorded afterMetrics = new MetricsRecorded();
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PingService.class, new PingServiceImpl())
        .callObserver(TripleMetrics.server(registry))
        .callObserver(afterMetrics)
        .build().start();
    try {
      TripleMetrics.bind(server, registry);
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port())
          .callObserver(TripleMetrics.client(registry)).build()) {
        TripleMetrics.bind(client, registry);
        client.proxy(PingService.class).ping(Ping.newBuilder().setText("scraped").build());
        afterMetrics.await(() -> {
          Timer served = registry.find("grpc.server.call.duration").timer();
          return served != null && served.count() == 1;
        }, "the server call ended");
        String scrape = registry.scrape();
        String method = "grpc_method=\"triple.metrics.test.PingService/ping\"";
        String target = "grpc_target=\"127.0.0.1:" + server.port() + "\"";
        for (String expected : List.of(
            "grpc_server_call_started_total{" + method + ",triple_protocol=\"grpc\"} 1",
            "grpc_server_call_duration_seconds_count{" + method + ",grpc_status=\"OK\",triple_protocol=\"grpc\"} 1",
            "grpc_server_call_duration_seconds_bucket{" + method + ",grpc_status=\"OK\",triple_protocol=\"grpc\",le=\"100.0\"} 1",
            "grpc_server_call_rcvd_total_compressed_message_size_bytes_bucket{" + method
                + ",grpc_status=\"OK\",triple_protocol=\"grpc\",le=\"1024.0\"} 1",
            "grpc_server_call_sent_total_compressed_message_size_bytes_sum{" + method
                + ",grpc_status=\"OK\",triple_protocol=\"grpc\"} 9",
            "grpc_client_attempt_started_total{" + method + "," + target + "} 1",
            "grpc_client_attempt_duration_seconds_count{" + method + ",grpc_status=\"OK\"," + target + "} 1",
            "grpc_client_attempt_sent_total_compressed_message_size_bytes_sum{" + method + ",grpc_status=\"OK\","
                + target + "} 9",
            "grpc_client_attempt_rcvd_total_compressed_message_size_bytes_count{" + method + ",grpc_status=\"OK\","
                + target + "} 1",
            "grpc_client_call_duration_seconds_count{" + method + ",grpc_status=\"OK\"," + target + "} 1",
            "triple_server_connections 1",
            "triple_server_calls_active 0",
            "triple_client_calls_active 0",
            "triple_server_write_commands_total ",
            "triple_server_write_flushes_total ",
            "triple_client_write_commands_total ",
            "triple_client_write_flushes_total ")) {
          assertTrue(scrape.contains(expected), "no " + expected + " in\n" + scrape);
        }
      }
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }
}
