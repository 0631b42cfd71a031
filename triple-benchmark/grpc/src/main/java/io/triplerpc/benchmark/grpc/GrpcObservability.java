package io.triplerpc.benchmark.grpc;

import io.grpc.ManagedChannelBuilder;
import io.grpc.ServerBuilder;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.OpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.Collection;

/**
 * What grpc-java's client and server observe, by the names Triple's ObservabilityBenchmark uses, through
 * grpc-java's own module ({@code grpc-opentelemetry}, gRPC's A66 metrics and its tracing) on the
 * OpenTelemetry SDK: {@code off}; {@code metrics} (the SDK's meters, read every minute by a reader whose
 * exporter drops them: each call records as a scraped one would); {@code tracing-1pct} (the SDK sampling
 * 1% of traces, parent-based, into a batch processor whose exporter drops them, as Triple's); {@code
 * metrics+tracing-1pct}. grpc-java 1.85 turns its tracing on only with the environment variable
 * {@code GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING=true}: a tracing mode without it fails at once. Set on
 * the server's JVM with {@code -Dtriple.bench.observe=...}.
 */
final class GrpcObservability implements AutoCloseable {

  static final String PROPERTY = "triple.bench.observe";
  static final String TRACING_SWITCH = "GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING";

  private final OpenTelemetrySdk sdk;
  private final GrpcOpenTelemetry grpc;

  private GrpcObservability(String mode) {
    boolean metrics = mode.contains("metrics");
    boolean tracing = mode.contains("tracing-1pct");
    if (!metrics && !tracing) {
      if (!mode.equals("off")) {
        throw new IllegalArgumentException("Unknown observability mode: " + mode);
      }
      sdk = null;
      grpc = null;
      return;
    }
    if (tracing && !"true".equalsIgnoreCase(System.getenv(TRACING_SWITCH))) {
      throw new IllegalStateException(
          "grpc-java traces only with " + TRACING_SWITCH + "=true in the environment (mode " + mode + ")");
    }
    OpenTelemetrySdkBuilder builder = OpenTelemetrySdk.builder()
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()));
    if (metrics) {
      builder.setMeterProvider(SdkMeterProvider.builder()
          .registerMetricReader(PeriodicMetricReader.builder(new DroppingMetricExporter())
              .setInterval(Duration.ofMinutes(1)).build())
          .build());
    }
    if (tracing) {
      builder.setTracerProvider(SdkTracerProvider.builder()
          .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(0.01)))
          // No exporters: the SDK's no-op one; the benchmark measures the recording, not a collector.
          .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite()).build())
          .build());
    }
    sdk = builder.build();
    grpc = GrpcOpenTelemetry.newBuilder().sdk(sdk).build();
  }

  static GrpcObservability of(String mode) {
    return new GrpcObservability(mode);
  }

  /** The mode of this JVM's server ({@link #PROPERTY}), off by default. */
  static GrpcObservability ofServer() {
    return of(System.getProperty(PROPERTY, "off"));
  }

  void configure(ServerBuilder<?> server) {
    if (grpc != null) {
      grpc.configureServerBuilder(server);
    }
  }

  void configure(ManagedChannelBuilder<?> channel) {
    if (grpc != null) {
      grpc.configureChannelBuilder(channel);
    }
  }

  @Override
  public void close() {
    if (sdk != null) {
      sdk.close();
    }
  }

  /** Drops the metrics it is given, cumulative as a Prometheus scrape's. */
  private static final class DroppingMetricExporter implements MetricExporter {
    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
      return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
