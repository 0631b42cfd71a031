package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ChannelCredentials;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.TestService;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.CallCredentials;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import java.io.IOException;
import java.security.Principal;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Credentials across implementations: grpc-java's client, with its own {@code CallCredentials}, against a
 * TLS-only Triple server with an access policy; Triple's client with its credentials against a grpc-java
 * server that checks the header as grpc-java users do, in an interceptor.
 */
class GrpcJavaCallCredentialsTest {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private TripleServer tripleServer;
  private Server grpcServer;
  private ManagedChannel channel;
  private TripleClient tripleClient;

  @AfterEach
  void stop() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (tripleClient != null) {
      tripleClient.close();
    }
    if (tripleServer != null) {
      tripleServer.shutdownNow();
      tripleServer.awaitTermination(Duration.ofSeconds(10));
    }
    if (grpcServer != null) {
      grpcServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /** grpc-java's way to attach a bearer token to each call. */
  private static io.grpc.CallCredentials grpcBearer(String token) {
    return new io.grpc.CallCredentials() {
      @Override
      public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + token);
        applier.apply(headers);
      }
    };
  }

  private void startTripleServer() {
    tripleServer = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(TestService.class, new TestServiceImpl())
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey()).build())
        .accessPolicy(AccessPolicy.builder(Authenticator.bearerToken(token -> token.equals("reader") || token.equals("admin")
                ? (Principal) () -> token : null))
            .authorize("grpc.testing.TestService/UnaryCall", (who, call) -> who.getName().equals("admin"))
            .build())
        .build().start();
  }

  private TestServiceGrpc.TestServiceBlockingStub grpcStub(ChannelCredentials credentials, String token) {
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", tripleServer.port(), credentials).build();
    TestServiceGrpc.TestServiceBlockingStub stub =
        TestServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    return token == null ? stub : stub.withCallCredentials(grpcBearer(token));
  }

  private static ChannelCredentials tls() throws IOException {
    return TlsChannelCredentials.newBuilder().trustManager(TestCertificates.caCertificate().toFile()).build();
  }

  @Test
  void grpcJavasCallCredentialsAreCheckedByTriplesAccessPolicy() throws Exception {
    startTripleServer();
    TestServiceGrpc.TestServiceBlockingStub reader = grpcStub(tls(), "reader");
    assertEquals(Empty.getDefaultInstance(), reader.emptyCall(Empty.getDefaultInstance()));

    StatusRuntimeException denied = assertThrows(StatusRuntimeException.class,
        () -> reader.unaryCall(io.grpc.testing.integration.Messages.SimpleRequest.getDefaultInstance()));
    assertEquals(io.grpc.Status.Code.PERMISSION_DENIED, denied.getStatus().getCode());

    StatusRuntimeException wrong = assertThrows(StatusRuntimeException.class,
        () -> reader.withCallCredentials(grpcBearer("forged")).emptyCall(Empty.getDefaultInstance()));
    assertEquals(io.grpc.Status.Code.UNAUTHENTICATED, wrong.getStatus().getCode());
  }

  @Test
  void grpcJavaInCleartextCannotReachATlsOnlyTripleServer() {
    startTripleServer();
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> grpcStub(InsecureChannelCredentials.create(), "reader").emptyCall(Empty.getDefaultInstance()));
    // gRPC maps HTTP/2's INADEQUATE_SECURITY to PERMISSION_DENIED; the GOAWAY's debug data says why.
    assertEquals(io.grpc.Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), e.getStatus().toString());
    assertTrue(e.getStatus().getDescription().contains("This port serves TLS only"), e.getStatus().toString());
  }

  @Test
  void triplesCallCredentialsReachAGrpcJavaServerThatChecksThem() throws Exception {
    ServerInterceptor bearerCheck = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (!"Bearer s3cret".equals(headers.get(AUTHORIZATION))) {
          call.close(io.grpc.Status.UNAUTHENTICATED.withDescription("grpc-java says: bad token"), new Metadata());
          return new ServerCall.Listener<>() {};
        }
        return Contexts.interceptCall(io.grpc.Context.current(), call, headers, next);
      }
    };
    TestServiceGrpc.TestServiceImplBase service = new TestServiceGrpc.TestServiceImplBase() {
      @Override
      public void emptyCall(Empty request, StreamObserver<Empty> responses) {
        responses.onNext(Empty.getDefaultInstance());
        responses.onCompleted();
      }
    };
    grpcServer = Grpc.newServerBuilderForPort(0, TlsServerCredentials.create(
            TestCertificates.serverCertificate().toFile(), TestCertificates.serverKey().toFile()))
        .addService(ServerInterceptors.intercept(service, bearerCheck))
        .build().start();

    tripleClient = TripleClient.builder().address("127.0.0.1", grpcServer.getPort())
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build())
        .callCredentials(CallCredentials.bearerToken("s3cret"))
        .build();
    TestService good = tripleClient.proxy(TestService.class);
    assertEquals(Empty.getDefaultInstance(), good.emptyCall(Empty.getDefaultInstance()));

    TestService bad = tripleClient.proxy(TestService.class,
        io.triplerpc.CallOptions.DEFAULT.withCallCredentials(CallCredentials.bearerToken("guess")));
    StatusException e = assertThrows(StatusException.class, () -> bad.emptyCall(Empty.getDefaultInstance()));
    assertEquals(Status.Code.UNAUTHENTICATED, e.status().code());
    assertEquals("grpc-java says: bad token", e.status().description());
  }
}
