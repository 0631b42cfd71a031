package io.triplerpc.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerBuilder;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.opentelemetry.internal.ServerAddress;
import io.triplerpc.opentelemetry.internal.TracingClientInterceptor;
import io.triplerpc.opentelemetry.internal.TracingServerInterceptor;
import java.util.Objects;

/**
 * Traces Triple calls with OpenTelemetry: a {@code CLIENT} span per call made through
 * {@link #clientInterceptor()}, a {@code SERVER} span per call served through
 * {@link #serverInterceptor()}, named {@code package.Service/Method}, with the attributes of
 * OpenTelemetry's RPC semantic conventions. The trace context (and baggage) travels in the request
 * headers through the {@code OpenTelemetry}'s own propagators, W3C {@code traceparent} with the SDK's
 * defaults, so a trace crosses grpc-java, Dubbo and any other peer that reads them.
 *
 * <pre>{@code
 * TripleTracing tracing = TripleTracing.create(openTelemetry);
 * TripleServer.builder().intercept(tracing.serverInterceptor())...;
 * TripleClient.builder().address("orders:50051").intercept(tracing.clientInterceptor("orders:50051"))...;
 * }</pre>
 *
 * <p>While a service runs (each of its callbacks), its call's server span is the current OpenTelemetry
 * {@code Context}, so the calls it makes through a traced client are the span's children. Work the
 * service hands to other threads takes the context along with {@code Context.current().wrap(executor)}.
 *
 * <p>Immutable and thread-safe; one instance serves any number of clients and servers.
 */
public final class TripleTracing {

  /** The instrumentation scope of the spans. */
  public static final String INSTRUMENTATION_NAME = "io.triplerpc.opentelemetry";

  private final OpenTelemetry openTelemetry;
  private final Tracer tracer;
  private final boolean messageEvents;
  /** The one client interceptor without a target, shared by every client that asks for it. */
  private final TracingClientInterceptor clientInterceptor;
  private final TracingServerInterceptor serverInterceptor;

  private TripleTracing(Builder builder) {
    this.openTelemetry = builder.openTelemetry;
    TracerBuilder tracerBuilder = openTelemetry.getTracerProvider().tracerBuilder(INSTRUMENTATION_NAME);
    String version = TripleTracing.class.getPackage().getImplementationVersion();
    if (version != null) {
      tracerBuilder.setInstrumentationVersion(version);
    }
    this.tracer = tracerBuilder.build();
    this.messageEvents = builder.messageEvents;
    this.clientInterceptor = new TracingClientInterceptor(
        tracer, openTelemetry.getPropagators().getTextMapPropagator(), null, messageEvents);
    this.serverInterceptor = new TracingServerInterceptor(
        tracer, openTelemetry.getPropagators().getTextMapPropagator(), messageEvents, builder.mdc);
  }

  /** Tracing with the defaults: message events on, MDC off. */
  public static TripleTracing create(OpenTelemetry openTelemetry) {
    return builder(openTelemetry).build();
  }

  /** A builder of tracing through {@code openTelemetry}'s tracer provider and propagators. */
  public static Builder builder(OpenTelemetry openTelemetry) {
    return new Builder(openTelemetry);
  }

  /**
   * The interceptor that traces a client's calls, without {@code server.address}: for clients whose
   * target is not worth naming (the span still has the method and the outcome).
   */
  public ClientInterceptor clientInterceptor() {
    return clientInterceptor;
  }

  /**
   * The interceptor that traces a client's calls to {@code target}, the address the client was built
   * with: {@code host:port} sets {@code server.address} and {@code server.port}; a target with a scheme
   * ({@code zookeeper://zk:2181}, {@code registry://...}) sets {@code server.address} to the whole
   * target, as the semantic conventions ask of targets that name a group of servers.
   *
   * @throws IllegalArgumentException if {@code target} is empty
   */
  public ClientInterceptor clientInterceptor(String target) {
    ServerAddress address = ServerAddress.parse(Objects.requireNonNull(target, "target"));
    return new TracingClientInterceptor(
        tracer, openTelemetry.getPropagators().getTextMapPropagator(), address, messageEvents);
  }

  /** The interceptor that traces a server's calls; put it first, so that the others run inside its span. */
  public ServerInterceptor serverInterceptor() {
    return serverInterceptor;
  }

  /** Builds a {@link TripleTracing}. Not thread-safe. */
  public static final class Builder {

    private final OpenTelemetry openTelemetry;
    private boolean messageEvents = true;
    private boolean mdc;

    private Builder(OpenTelemetry openTelemetry) {
      this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
    }

    /**
     * Whether each message a call sends or receives adds an {@code rpc.message} event to its span (on
     * by default). Off saves an event (and its attributes) per message on long streams.
     */
    public Builder messageEvents(boolean enabled) {
      this.messageEvents = enabled;
      return this;
    }

    /**
     * Whether SLF4J's MDC holds {@code trace_id}, {@code span_id} and {@code rpc.method} while a
     * service callback runs, the values it had restored after each (off by default: six MDC writes per
     * callback, and not needed where a logging bridge already reads the current span).
     */
    public Builder mdc(boolean enabled) {
      this.mdc = enabled;
      return this;
    }

    public TripleTracing build() {
      return new TripleTracing(this);
    }
  }
}
