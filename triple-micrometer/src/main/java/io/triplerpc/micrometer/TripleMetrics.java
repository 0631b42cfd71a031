package io.triplerpc.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.triplerpc.CallObserver;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.micrometer.internal.ClientCallMetrics;
import io.triplerpc.micrometer.internal.Gauges;
import io.triplerpc.micrometer.internal.PrometheusScrape;
import io.triplerpc.micrometer.internal.ServerCallMetrics;
import java.util.function.Predicate;

/**
 * Micrometer metrics of Triple servers and clients. Call metrics are named, tagged and bucketed as gRPC's
 * OpenTelemetry metrics (proposal A66), so dashboards made for grpc-java or grpc-go read them too:
 *
 * <pre>{@code
 * TripleServer server = TripleServer.builder()
 *     .callObserver(TripleMetrics.server(registry))
 *     ...
 *     .build().start();
 * TripleMetrics.bind(server, registry);            // connections and write-queue gauges
 *
 * TripleClient client = TripleClient.builder()
 *     .callObserver(TripleMetrics.client(registry))
 *     ...
 *     .build();
 * }</pre>
 *
 * <p>Server: {@code grpc.server.call.started}, {@code grpc.server.call.duration},
 * {@code grpc.server.call.sent_total_compressed_message_size} and
 * {@code grpc.server.call.rcvd_total_compressed_message_size}, tagged {@code grpc.method},
 * {@code grpc.status} (but the counter) and {@code triple.protocol}; a method the server does not serve is
 * tagged {@code other}, unless the server's factory was given a filter that keeps its name. Client:
 * {@code grpc.client.attempt.started}, {@code grpc.client.attempt.duration}, the attempts' two sizes and
 * {@code grpc.client.call.duration}, tagged {@code grpc.method} (whatever method the client names),
 * {@code grpc.target} and {@code grpc.status} (but the counter). Durations are timers, sizes
 * distribution summaries in bytes, both with A66's bucket boundaries as service-level objectives (a
 * {@code MeterFilter} may change them). Gauges {@code triple.server.calls.active} and
 * {@code triple.client.calls.active} count the calls in flight; {@link #bind} adds the rest. A client's
 * discovery has meters of its own: {@link DiscoveryMetrics}. docs/observability.md lists every meter.
 *
 * <p>A {@code PrometheusMeterRegistry} can be scraped on the server's own port with {@link #prometheus}.
 *
 * <p>Several servers (or clients) may share a registry: their call metrics add up, as their calls-in-flight
 * gauges do. To tell them apart, give each its own {@code tags}. {@link #bind} needs that to bind more than
 * one: binding again with the same tags replaces the earlier binding (a server restarted in one process).
 */
public final class TripleMetrics {

  private TripleMetrics() {}

  /** A server's call metrics in {@code registry}, for {@code TripleServer.Builder.callObserver}. */
  public static CallObserver server(MeterRegistry registry) {
    return server(registry, Tags.empty());
  }

  /** A server's call metrics in {@code registry}, each meter tagged with {@code tags} too. */
  public static CallObserver server(MeterRegistry registry, Iterable<Tag> tags) {
    return new ServerCallMetrics(requireNonNull(registry, "registry"), Tags.of(requireNonNull(tags, "tags")), null);
  }

  /**
   * {@link #server(MeterRegistry, Iterable)}, with A66's option to record the names of methods the server
   * does not serve: a call of such a method is tagged with its name ({@code pkg.Service/Method}) when
   * {@code keepUnknownMethod} accepts it, else {@code other}. {@code name -> true} keeps them all, and then
   * any client can add a series per name it makes up; a filter that accepts a bounded set (a prefix, the
   * names of a service served elsewhere) keeps the series bounded. Asked at the start and at the end of
   * each such call, on the threads that observe calls: it must be quick, must not block, and should answer the same
   * for a name every time. Methods the server serves keep their names whatever it says.
   */
  public static CallObserver server(MeterRegistry registry, Iterable<Tag> tags, Predicate<String> keepUnknownMethod) {
    return new ServerCallMetrics(requireNonNull(registry, "registry"), Tags.of(requireNonNull(tags, "tags")),
        requireNonNull(keepUnknownMethod, "keepUnknownMethod"));
  }

  /**
   * A client's call and attempt metrics in {@code registry}, for {@code TripleClient.Builder.callObserver}.
   * A client tags every call with the method it names: its names come from the application's own code
   * (proxies, descriptors, a generic call's {@code pkg.Service/$invoke}), not from the network.
   */
  public static CallObserver client(MeterRegistry registry) {
    return client(registry, Tags.empty());
  }

  /** A client's call and attempt metrics in {@code registry}, each meter tagged with {@code tags} too. */
  public static CallObserver client(MeterRegistry registry, Iterable<Tag> tags) {
    return new ClientCallMetrics(requireNonNull(registry, "registry"), Tags.of(requireNonNull(tags, "tags")));
  }

  /**
   * Serves {@code registry}'s scrape on a server's own port, for {@code TripleServer.Builder.httpGet}:
   *
   * <pre>{@code
   * TripleServer.builder()
   *     .callObserver(TripleMetrics.server(prometheusRegistry))
   *     .httpGet("/metrics", TripleMetrics.prometheus(prometheusRegistry))
   *     ...
   * }</pre>
   *
   * <p>A GET answers 200 in Prometheus's text format ({@code text/plain; version=0.0.4; charset=utf-8}),
   * or in OpenMetrics ({@code application/openmetrics-text; version=1.0.0; charset=utf-8}) when the
   * request's Accept header names {@code application/openmetrics-text}, as Prometheus's does; the
   * registry renders either. The scrape runs on the server's service executor, never on an event loop.
   * Whoever can reach the port can read it ({@code httpGet} says how to keep it from callers). Needs
   * {@code io.micrometer:micrometer-registry-prometheus}, an optional dependency of this module: the rest
   * of this class works without it.
   */
  public static HttpGetHandler prometheus(PrometheusMeterRegistry registry) {
    return new PrometheusScrape(requireNonNull(registry, "registry"));
  }

  /**
   * Registers gauges read from {@code server} when {@code registry} publishes: {@code triple.server.connections}
   * (open now), and the counters {@code triple.server.write.commands} and {@code triple.server.write.flushes}
   * of its HTTP/2 connections' write queues (their ratio is the commands each flush carried). The server is
   * held weakly.
   */
  public static void bind(TripleServer server, MeterRegistry registry) {
    bind(server, registry, Tags.empty());
  }

  /** {@link #bind(TripleServer, MeterRegistry)}, each meter tagged with {@code tags} too. */
  public static void bind(TripleServer server, MeterRegistry registry, Iterable<Tag> tags) {
    Gauges.bind(requireNonNull(server, "server"), requireNonNull(registry, "registry"),
        Tags.of(requireNonNull(tags, "tags")));
  }

  /**
   * Registers the counters {@code triple.client.write.commands} and {@code triple.client.write.flushes},
   * read from {@code client}'s {@link TripleClient#writeStats()} when {@code registry} publishes. They count
   * over the client's current connections, so a reconnection starts them over (Prometheus's {@code rate()}
   * takes that for a counter reset). The client is held weakly.
   */
  public static void bind(TripleClient client, MeterRegistry registry) {
    bind(client, registry, Tags.empty());
  }

  /** {@link #bind(TripleClient, MeterRegistry)}, each meter tagged with {@code tags} too. */
  public static void bind(TripleClient client, MeterRegistry registry, Iterable<Tag> tags) {
    Gauges.bind(requireNonNull(client, "client"), requireNonNull(registry, "registry"),
        Tags.of(requireNonNull(tags, "tags")));
  }
}
