package io.triplerpc.micrometer.internal;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.triplerpc.HttpGetHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * Serves a {@link PrometheusMeterRegistry}'s scrape: Prometheus's text format, or OpenMetrics when the
 * request's Accept header names it, as Prometheus's own client library negotiates. The registry renders
 * the format; this only picks it. Thread-safe (the registry is).
 */
public final class PrometheusScrape implements HttpGetHandler {

  /** Prometheus's text exposition format, the registry's default. */
  static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
  /** OpenMetrics 1.0, which the registry renders for this content type. */
  static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
  private static final String OPENMETRICS_MEDIA_TYPE = "application/openmetrics-text";

  private final PrometheusMeterRegistry registry;

  public PrometheusScrape(PrometheusMeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public Response get(Request request) throws IOException {
    String contentType = acceptsOpenMetrics(request.headers().getAll("accept")) ? OPENMETRICS : TEXT_FORMAT;
    ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
    registry.scrape(body, contentType);
    return Response.ok(contentType, body.toByteArray());
  }

  /**
   * Whether an Accept header names OpenMetrics (Prometheus asks for it first, then the text format).
   * Protobuf, which Prometheus may ask for first too, is not served: the text format answers it.
   */
  static boolean acceptsOpenMetrics(List<String> accept) {
    for (String value : accept) {
      if (value.toLowerCase(Locale.ROOT).contains(OPENMETRICS_MEDIA_TYPE)) {
        return true;
      }
    }
    return false;
  }
}
