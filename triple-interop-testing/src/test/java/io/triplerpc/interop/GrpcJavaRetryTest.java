package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.TestService;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.RetryPolicy;
import io.triplerpc.ServerContext;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retries across implementations, where the wire is involved: each side's retrying client sends
 * {@code grpc-previous-rpc-attempts} on its later attempts, and honours the other side's
 * {@code grpc-retry-pushback-ms}.
 */
class GrpcJavaRetryTest {

  private static final Metadata.Key<String> PREVIOUS =
      Metadata.Key.of("grpc-previous-rpc-attempts", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> PUSHBACK =
      Metadata.Key.of("grpc-retry-pushback-ms", Metadata.ASCII_STRING_MARSHALLER);

  private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger calls = new AtomicInteger();
  private Server grpcServer;
  private TripleServer tripleServer;
  private ManagedChannel channel;
  private TripleClient client;

  @AfterEach
  void stop() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (client != null) {
      client.close();
    }
    if (grpcServer != null) {
      grpcServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (tripleServer != null) {
      tripleServer.shutdownNow();
      tripleServer.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void tripleRetriesAgainstGrpcJavaWithItsPushback() throws Exception {
    ServerInterceptor firstFails = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        seen.add(String.valueOf(headers.get(PREVIOUS)));
        if (calls.incrementAndGet() == 1) {
          Metadata trailers = new Metadata();
          trailers.put(PUSHBACK, "20");
          call.close(Status.UNAVAILABLE.withDescription("come back in 20 ms"), trailers);
          return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
      }
    };
    grpcServer = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(ServerInterceptors.intercept(new TestServiceGrpc.TestServiceImplBase() {
          @Override
          public void emptyCall(Empty request, StreamObserver<Empty> responses) {
            responses.onNext(Empty.getDefaultInstance());
            responses.onCompleted();
          }
        }, firstFails)).build().start();
    client = TripleClient.builder().address("127.0.0.1", grpcServer.getPort())
        .retryPolicy(RetryPolicy.builder().maxAttempts(3).build(), "grpc.testing.TestService").build();
    assertEquals(Empty.getDefaultInstance(), client.proxy(TestService.class).emptyCall(Empty.getDefaultInstance()));
    assertEquals(List.of("null", "1"), seen);
  }

  @Test
  void grpcJavaRetriesAgainstTripleWithItsPushback() throws Exception {
    TestService real = new TestServiceImpl();
    TestService firstFails = (TestService) Proxy.newProxyInstance(TestService.class.getClassLoader(),
        new Class<?>[] {TestService.class}, (proxy, method, args) -> {
          // A proxy class implements both emptyCall and emptyCallAsync, so the server calls the latter.
          if (method.getName().equals("emptyCallAsync")) {
            seen.add(String.valueOf(ServerContext.current().requestHeaders().get("grpc-previous-rpc-attempts")));
            if (calls.incrementAndGet() == 1) {
              ServerContext.current().responseTrailers().put("grpc-retry-pushback-ms", "20");
              return CompletableFuture.failedFuture(
                  io.triplerpc.Status.UNAVAILABLE.withDescription("come back in 20 ms").asException());
            }
          }
          return method.invoke(real, args);
        });
    tripleServer = TripleServer.builder().host("127.0.0.1").port(0).addService(TestService.class, firstFails)
        .build().start();
    Map<String, Object> retryPolicy = Map.of("maxAttempts", 3.0, "initialBackoff", "10s", "maxBackoff", "10s",
        "backoffMultiplier", 1.0, "retryableStatusCodes", List.of("UNAVAILABLE"));
    Map<String, Object> config = Map.of("methodConfig", List.of(Map.of(
        "name", List.of(Map.of("service", "grpc.testing.TestService")), "retryPolicy", retryPolicy)));
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", tripleServer.port(), InsecureChannelCredentials.create())
        .defaultServiceConfig(config).enableRetry().build();
    // The pushback's 20 ms replaces grpc-java's random backoff of up to 10 s.
    assertEquals(Empty.getDefaultInstance(), TestServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(5, TimeUnit.SECONDS).emptyCall(Empty.getDefaultInstance()));
    assertEquals(List.of("null", "1"), seen);
  }
}
