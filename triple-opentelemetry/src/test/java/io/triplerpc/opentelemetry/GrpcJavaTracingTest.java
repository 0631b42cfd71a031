package io.triplerpc.opentelemetry;

import static io.triplerpc.opentelemetry.Relay.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A trace crosses grpc-java, traced by its own OpenTelemetry module ({@code grpc-opentelemetry}, tracing
 * on through {@code GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING}, set for these tests in the pom), both ways:
 * both speak W3C trace context and baggage through the same SDK's propagators. grpc-java names its
 * spans {@code Sent.<method>} (the call), {@code Attempt.<method>} (each attempt, the one whose context
 * goes on the wire) and {@code Recv.<method>}, dots for the slash, of kind INTERNAL.
 */
class GrpcJavaTracingTest {

  private static final MethodDescriptor.Marshaller<StringValue> STRING_VALUE = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(StringValue value) {
      return new ByteArrayInputStream(value.toByteArray());
    }

    @Override
    public StringValue parse(InputStream stream) {
      try {
        return StringValue.parseFrom(stream);
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalArgumentException(e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private static final MethodDescriptor<StringValue, StringValue> UNARY = method("Unary", MethodDescriptor.MethodType.UNARY);
  private static final MethodDescriptor<StringValue, StringValue> BIDI = method("Bidi", MethodDescriptor.MethodType.BIDI_STREAMING);

  @RegisterExtension final TracedChain chain = new TracedChain();

  private ManagedChannel channel;
  private Server grpcServer;

  private static MethodDescriptor<StringValue, StringValue> method(String name, MethodDescriptor.MethodType type) {
    return MethodDescriptor.<StringValue, StringValue>newBuilder()
        .setType(type)
        .setFullMethodName("triple.tracing.Relay/" + name)
        .setRequestMarshaller(STRING_VALUE)
        .setResponseMarshaller(STRING_VALUE)
        .build();
  }

  @AfterEach
  void stopGrpc() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (grpcServer != null) {
      grpcServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private GrpcOpenTelemetry grpcTracing() {
    return GrpcOpenTelemetry.newBuilder().sdk(chain.sdk).build();
  }

  /** A grpc-java channel to Triple's server A, traced by grpc-java. */
  private ManagedChannel channelToA() {
    chain.start();
    ManagedChannelBuilder<?> builder =
        Grpc.newChannelBuilderForAddress("127.0.0.1", chain.portOfA(), InsecureChannelCredentials.create());
    grpcTracing().configureChannelBuilder(builder);
    channel = builder.build();
    return channel;
  }

  private static Context withTenant(Span root) {
    return Context.current().with(root).with(Baggage.builder().put("tenant", "acme").build());
  }

  @Test
  void aGrpcJavaCallsTraceContinuesThroughTripleServers() throws Exception {
    ManagedChannel channel = channelToA();
    Span root = chain.root();
    StringValue reply;
    try (Scope ignored = withTenant(root).makeCurrent()) {
      reply = ClientCalls.blockingUnaryCall(channel, UNARY, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
          text("hi"));
    } finally {
      root.end();
    }
    assertEquals("b:hi", reply.getValue());

    SpanData sent = chain.spans.await("Sent.triple.tracing.Relay.Unary", SpanKind.INTERNAL);
    SpanData attempt = chain.spans.await("Attempt.triple.tracing.Relay.Unary", SpanKind.INTERNAL);
    List<SpanData> servers = chain.spans.await("triple.tracing.Relay/Unary", SpanKind.SERVER, 2);
    SpanData tripleClient = chain.spans.await("triple.tracing.Relay/Unary", SpanKind.CLIENT);
    String traceId = root.getSpanContext().getTraceId();
    assertEquals(root.getSpanContext().getSpanId(), sent.getParentSpanId());
    assertEquals(sent.getSpanId(), attempt.getParentSpanId());
    SpanData serverA = childOf(servers, attempt.getSpanId());
    assertEquals(serverA.getSpanId(), tripleClient.getParentSpanId());
    SpanData serverB = childOf(servers, tripleClient.getSpanId());
    for (SpanData span : List.of(sent, attempt, serverA, tripleClient, serverB)) {
      assertEquals(traceId, span.getTraceId(), span.toString());
    }
    assertEquals("acme", chain.a.seen.peek().tenant());
    assertEquals("acme", chain.b.seen.peek().tenant());
  }

  @Test
  void aGrpcJavaBidiCallHasItsMessagesOnTheTripleServerSpan() throws Exception {
    ManagedChannel channel = channelToA();
    RecordingObserver<StringValue> responses = new RecordingObserver<>();
    Span root = chain.root();
    try (Scope ignored = withTenant(root).makeCurrent()) {
      io.grpc.stub.StreamObserver<StringValue> requests =
          ClientCalls.asyncBidiStreamingCall(channel.newCall(BIDI, CallOptions.DEFAULT), grpcObserver(responses));
      requests.onNext(text("1"));
      requests.onNext(text("2"));
      requests.onCompleted();
    }
    responses.awaitEnd();
    root.end();
    assertNull(responses.error());
    assertEquals(2, responses.values().size());

    SpanData attempt = chain.spans.await("Attempt.triple.tracing.Relay.Bidi", SpanKind.INTERNAL);
    SpanData serverA = childOf(chain.spans.await("triple.tracing.Relay/Bidi", SpanKind.SERVER, 2), attempt.getSpanId());
    assertEquals(root.getSpanContext().getTraceId(), serverA.getTraceId());
    assertEquals(List.of(1L, 2L), RecordedSpans.messages(serverA, "RECEIVED"));
    assertEquals(List.of(1L, 2L), RecordedSpans.messages(serverA, "SENT"));
    assertEquals("acme", chain.b.seen.peek().tenant());
  }

  @Test
  void aTripleCallsTraceContinuesInAGrpcJavaServer() throws Exception {
    chain.start();
    Queue<Seen> seenByGrpc = new ConcurrentLinkedQueue<>();
    ServerServiceDefinition service = ServerServiceDefinition.builder("triple.tracing.Relay")
        .addMethod(UNARY, ServerCalls.asyncUnaryCall((request, responses) -> {
          seenByGrpc.add(Seen.now());
          responses.onNext(text("grpc:" + request.getValue()));
          responses.onCompleted();
        }))
        .build();
    NettyServerBuilder builder = NettyServerBuilder
        .forAddress(new InetSocketAddress("127.0.0.1", 0), InsecureServerCredentials.create())
        .addService(service);
    grpcTracing().configureServerBuilder(builder);
    grpcServer = builder.build().start();

    Relay relay = chain.client(grpcServer.getPort()).proxy(Relay.class);
    Span root = chain.root();
    StringValue reply;
    try (Scope ignored = withTenant(root).makeCurrent()) {
      reply = relay.unary(text("hi"));
    } finally {
      root.end();
    }
    assertEquals("grpc:hi", reply.getValue());

    SpanData tripleClient = chain.spans.await("triple.tracing.Relay/Unary", SpanKind.CLIENT);
    SpanData received = chain.spans.await("Recv.triple.tracing.Relay.Unary", SpanKind.INTERNAL);
    assertEquals(root.getSpanContext().getSpanId(), tripleClient.getParentSpanId());
    assertEquals(tripleClient.getSpanId(), received.getParentSpanId());
    assertEquals(root.getSpanContext().getTraceId(), received.getTraceId());
    Seen seen = seenByGrpc.peek();
    // grpc-java's service ran inside its server span, with the baggage the Triple client sent.
    assertEquals(received.getSpanContext(), seen.currentSpan());
    assertEquals("acme", seen.tenant());
  }

  private static SpanData childOf(List<SpanData> spans, String parentSpanId) {
    return spans.stream().filter(span -> span.getParentSpanId().equals(parentSpanId)).findFirst()
        .orElseThrow(() -> new AssertionError("No span with parent " + parentSpanId + " among " + spans));
  }

  private static io.grpc.stub.StreamObserver<StringValue> grpcObserver(RecordingObserver<StringValue> recorder) {
    return new io.grpc.stub.StreamObserver<>() {
      @Override
      public void onNext(StringValue value) {
        recorder.onNext(value);
      }

      @Override
      public void onError(Throwable t) {
        recorder.onError(t);
      }

      @Override
      public void onCompleted() {
        recorder.onCompleted();
      }
    };
  }
}
