package io.triplerpc.spring.boot.app;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application's OpenTelemetry: the SDK exporting each span as it ends to the SDK's in-memory exporter,
 * W3C trace context in the headers.
 */
@Configuration(proxyBeanMethods = false)
public class TracingConfiguration {

  @Bean
  public Spans spans() {
    return new Spans();
  }

  @Bean
  public OpenTelemetrySdk openTelemetry(Spans spans) {
    return OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
  }

  /** The ended spans, and a wait for those that end on other threads (a server's, after its response left). */
  public static final class Spans implements SpanExporter {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();

    @Override
    public synchronized CompletableResultCode export(Collection<SpanData> spans) {
      CompletableResultCode result = exported.export(spans);
      notifyAll();
      return result;
    }

    @Override
    public CompletableResultCode flush() {
      return exported.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
      return exported.shutdown();
    }

    /** The spans ended so far. */
    public List<SpanData> ended() {
      return exported.getFinishedSpanItems();
    }

    /** The spans ended, once there are at least {@code count}; fails after 10 s. */
    public synchronized List<SpanData> await(int count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (ended().size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("Timed out waiting for " + count + " spans; ended: " + ended());
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return ended();
    }
  }
}
