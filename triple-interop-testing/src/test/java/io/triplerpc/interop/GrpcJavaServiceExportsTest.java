package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.TestService;
import io.grpc.testing.integration.TestServiceGrpc;
import io.triplerpc.TripleServer;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A grpc-java client picks among a Triple server's exports of one service with the headers Dubbo uses,
 * {@code tri-service-version} and {@code tri-service-group}, attached as ordinary metadata.
 */
class GrpcJavaServiceExportsTest {

  private static final Metadata.Key<String> VERSION = Metadata.Key.of("tri-service-version", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> GROUP = Metadata.Key.of("tri-service-group", Metadata.ASCII_STRING_MARSHALLER);

  private static TripleServer server;
  private static ManagedChannel channel;

  /**
   * The interop TestService, whose unaryCall answers with {@code name} as its user name. A proxy class
   * implements both unaryCall and unaryCallAsync, so the server calls the asynchronous one.
   */
  private static TestService named(String name) {
    TestService real = new TestServiceImpl();
    return (TestService) Proxy.newProxyInstance(TestService.class.getClassLoader(), new Class<?>[] {TestService.class},
        (proxy, method, args) -> method.getName().equals("unaryCallAsync")
            ? CompletableFuture.completedFuture(SimpleResponse.newBuilder().setUsername(name).build())
            : method.invoke(real, args));
  }

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(TestService.class, named("default"))
        .addService(TestService.class, named("v1"), "1.0.0", "")
        .addService(TestService.class, named("v2-blue"), "2.0.0", "blue")
        .build().start();
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(), InsecureChannelCredentials.create()).build();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private static TestServiceGrpc.TestServiceBlockingStub stub(String version, String group) {
    Metadata headers = new Metadata();
    if (version != null) {
      headers.put(VERSION, version);
    }
    if (group != null) {
      headers.put(GROUP, group);
    }
    return TestServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  @Test
  void theHeadersPickTheExport() {
    SimpleRequest request = SimpleRequest.getDefaultInstance();
    assertEquals("default", stub(null, null).unaryCall(request).getUsername());
    assertEquals("v1", stub("1.0.0", null).unaryCall(request).getUsername());
    assertEquals("v2-blue", stub("2.0.0", "blue").unaryCall(request).getUsername());
  }

  @Test
  void anExportNotServedIsUnimplemented() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> stub("2.0.0", null).unaryCall(SimpleRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("not served with version 2.0.0, no group"),
        e.getStatus().getDescription());
  }

  @Test
  void otherMethodsOfTheServiceAreRoutedToo() {
    assertEquals(io.grpc.testing.integration.EmptyProtos.Empty.getDefaultInstance(),
        stub("2.0.0", "blue").emptyCall(io.grpc.testing.integration.EmptyProtos.Empty.getDefaultInstance()));
  }
}
