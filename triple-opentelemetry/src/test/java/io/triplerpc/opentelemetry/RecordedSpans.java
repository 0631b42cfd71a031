package io.triplerpc.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The SDK's in-memory exporter, and a way to wait for spans that end on other threads (a server's span
 * ends after its response went out, possibly after the client returned). With a
 * {@code SimpleSpanProcessor}, a span is exported as it ends.
 */
final class RecordedSpans implements SpanExporter {

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

  List<SpanData> all() {
    return exported.getFinishedSpanItems();
  }

  /** The one span of {@code kind} named {@code name}, once it has ended; fails if there are several. */
  SpanData await(String name, SpanKind kind) throws InterruptedException {
    List<SpanData> found = await(name, kind, 1);
    if (found.size() != 1) {
      throw new AssertionError("Expected one " + kind + " span " + name + ", got " + found);
    }
    return found.get(0);
  }

  /** The spans of {@code kind} named {@code name}, once at least {@code count} have ended. */
  synchronized List<SpanData> await(String name, SpanKind kind, int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      List<SpanData> found = named(name, kind);
      if (found.size() >= count) {
        return found;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("Timed out waiting for " + count + " " + kind + " span(s) " + name + "; ended: " + all());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  List<SpanData> named(String name, SpanKind kind) {
    List<SpanData> found = new ArrayList<>();
    for (SpanData span : all()) {
      if (span.getName().equals(name) && span.getKind() == kind) {
        found.add(span);
      }
    }
    return found;
  }

  /** The ids of the {@code rpc.message} events of {@code type} (SENT or RECEIVED), in the order they happened. */
  static List<Long> messages(SpanData span, String type) {
    List<Long> ids = new ArrayList<>();
    for (EventData event : span.getEvents()) {
      if (event.getName().equals("rpc.message")
          && type.equals(event.getAttributes().get(AttributeKey.stringKey("rpc.message.type")))) {
        ids.add(event.getAttributes().get(AttributeKey.longKey("rpc.message.id")));
      }
    }
    return ids;
  }
}
