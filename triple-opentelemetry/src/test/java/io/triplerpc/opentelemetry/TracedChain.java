package io.triplerpc.opentelemetry;

import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An OpenTelemetry SDK recording every span in memory, and a chain of real servers on loopback ports,
 * every hop traced: a client calls server A ({@link ForwardingRelay}), whose service calls server B
 * ({@link EchoRelay}). Started by the test (with its tracing options), closed after it. Register with
 * {@code @RegisterExtension}.
 */
final class TracedChain implements AfterEachCallback {

  /** W3C trace context and baggage, the propagators an application configures for both. */
  static final ContextPropagators W3C = ContextPropagators.create(
      TextMapPropagator.composite(W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance()));

  final RecordedSpans spans = new RecordedSpans();
  final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
      .setPropagators(W3C)
      .build();
  final EchoRelay b = new EchoRelay();
  ForwardingRelay a;
  TripleTracing tracing;
  private TripleServer serverA;
  private TripleServer serverB;
  private final Deque<TripleClient> clients = new ArrayDeque<>();
  private final Deque<TripleServer> servers = new ArrayDeque<>();

  /** Starts B, then A, traced with the defaults. */
  TracedChain start() {
    return start(builder -> builder, null);
  }

  /** Starts B, then A (whose calls run on {@code executorOfA}, or the default when null), traced as configured. */
  TracedChain start(UnaryOperator<TripleTracing.Builder> options, Executor executorOfA) {
    tracing = options.apply(TripleTracing.builder(sdk)).build();
    serverB = server(TripleServer.builder().addService(Relay.class, b));
    TripleClient toB = client(serverB.port());
    a = new ForwardingRelay(toB.proxy(Relay.class));
    TripleServer.Builder builderOfA = TripleServer.builder().addService(Relay.class, a);
    serverA = server(executorOfA == null ? builderOfA : builderOfA.executor(executorOfA));
    return this;
  }

  /** A traced server on a loopback port, closed after the test. */
  TripleServer server(TripleServer.Builder builder) {
    TripleServer server = builder.host("127.0.0.1").port(0).intercept(tracing.serverInterceptor()).build().start();
    servers.push(server);
    return server;
  }

  /** A traced client of the server at {@code port}, closed after the test. */
  TripleClient client(int port) {
    String target = "127.0.0.1:" + port;
    TripleClient client = TripleClient.builder().address(target).intercept(tracing.clientInterceptor(target)).build();
    clients.push(client);
    return client;
  }

  int portOfA() {
    return serverA.port();
  }

  int portOfB() {
    return serverB.port();
  }

  /** The relay on A, through a new traced client. */
  Relay relayA() {
    return client(portOfA()).proxy(Relay.class);
  }

  Tracer tracer() {
    return sdk.getTracer("test");
  }

  /** A span of the test itself, the parent of its calls once made current. */
  Span root() {
    return tracer().spanBuilder("test").startSpan();
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    clients.forEach(TripleClient::close);
    clients.clear();
    for (TripleServer server : servers) {
      server.shutdownNow();
      if (!server.awaitTermination(Duration.ofSeconds(10))) {
        throw new AssertionError("server did not terminate");
      }
    }
    servers.clear();
    sdk.close();
  }
}
