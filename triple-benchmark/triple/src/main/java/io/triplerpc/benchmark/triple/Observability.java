package io.triplerpc.benchmark.triple;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.triplerpc.CallObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.micrometer.TripleMetrics;
import io.triplerpc.opentelemetry.TripleTracing;

/**
 * What a benchmark's client and server observe, by name: {@code off}; {@code metrics} (Micrometer, a
 * {@link PrometheusMeterRegistry} with A66's histograms: what a scrape reads; its histograms are
 * cumulative, one bucket array per meter, where a {@code SimpleMeterRegistry}'s keep a ring of three
 * time windows and cost three times the work per record); {@code observer-noop} (a call observer that
 * records nothing: Triple's own part of metrics); {@code tracing-noop} (the interceptors on
 * {@link OpenTelemetry#noop()}); {@code tracing-1pct} (the SDK sampling 1% of traces, parent-based, into a
 * batch processor whose exporter drops them); {@code metrics+tracing-1pct}. Set on the server's JVM with
 * {@code -Dtriple.bench.observe=...}.
 */
final class Observability implements AutoCloseable {

  static final String PROPERTY = "triple.bench.observe";

  private final PrometheusMeterRegistry registry;
  /** An observer that records nothing ({@code observer-noop}): what Triple's observing costs without Micrometer. */
  private final boolean noopObserver;
  private final OpenTelemetrySdk sdk;
  private final TripleTracing tracing;

  private Observability(String mode) {
    boolean metrics = mode.contains("metrics");
    registry = metrics ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) : null;
    noopObserver = mode.equals("observer-noop");
    if (mode.contains("tracing-noop")) {
      sdk = null;
      tracing = TripleTracing.create(OpenTelemetry.noop());
    } else if (mode.contains("tracing-1pct")) {
      sdk = OpenTelemetrySdk.builder()
          .setTracerProvider(SdkTracerProvider.builder()
              .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(0.01)))
              // No exporters: the SDK's no-op one; the benchmark measures the recording, not a collector.
              .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite()).build())
              .build())
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
      tracing = TripleTracing.create(sdk);
    } else if (metrics || noopObserver || mode.equals("off")) {
      sdk = null;
      tracing = null;
    } else {
      throw new IllegalArgumentException("Unknown observability mode: " + mode);
    }
  }

  static Observability of(String mode) {
    return new Observability(mode);
  }

  /** The mode of this JVM's server ({@link #PROPERTY}), off by default. */
  static Observability ofServer() {
    return of(System.getProperty(PROPERTY, "off"));
  }

  TripleServer.Builder server(TripleServer.Builder builder) {
    if (registry != null) {
      // Scraped by scripts that read the server's own latency histogram (the open-loop analysis).
      builder.callObserver(TripleMetrics.server(registry))
          .httpGet("/metrics", TripleMetrics.prometheus(registry));
    }
    if (noopObserver) {
      builder.callObserver(new CallObserver() {});
    }
    if (tracing != null) {
      builder.intercept(tracing.serverInterceptor());
    }
    return builder;
  }

  TripleClient.Builder client(TripleClient.Builder builder, String target) {
    if (registry != null) {
      builder.callObserver(TripleMetrics.client(registry));
    }
    if (noopObserver) {
      builder.callObserver(new CallObserver() {});
    }
    if (tracing != null) {
      builder.intercept(tracing.clientInterceptor(target));
    }
    return builder;
  }

  @Override
  public void close() {
    if (sdk != null) {
      sdk.close();
    }
  }
}
