package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.TestService;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's reflection stubs (grpc-services), v1 and v1alpha, against Triple's built-in reflection:
 * what grpcurl does for {@code list} and {@code describe}.
 */
class GrpcJavaReflectionClientTest {

  private static TripleServer server;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() {
    server = InteropServer.start("127.0.0.1", 0);
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  /** Sends each request on one reflection stream, in order, and returns the answers. */
  private static List<ServerReflectionResponse> ask(ServerReflectionRequest... requests) throws Exception {
    Answers<ServerReflectionResponse> answers = new Answers<>();
    StreamObserver<ServerReflectionRequest> stream = ServerReflectionGrpc.newStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .serverReflectionInfo(answers);
    for (ServerReflectionRequest request : requests) {
      stream.onNext(request);
    }
    stream.onCompleted();
    return answers.await();
  }

  /** The answers of one reflection stream, until it ends. */
  private static final class Answers<T> implements StreamObserver<T> {
    private final LinkedBlockingQueue<T> values = new LinkedBlockingQueue<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    @Override
    public void onNext(T value) {
      values.add(value);
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(null);
    }

    List<T> await() throws Exception {
      done.get(10, TimeUnit.SECONDS);
      return new ArrayList<>(values);
    }
  }

  private static FileDescriptor build(List<ByteString> protos, String wanted) throws Exception {
    Map<String, FileDescriptorProto> byName = new HashMap<>();
    for (ByteString bytes : protos) {
      FileDescriptorProto proto = FileDescriptorProto.parseFrom(bytes);
      byName.put(proto.getName(), proto);
    }
    return build(byName, wanted, new HashMap<>());
  }

  private static FileDescriptor build(
      Map<String, FileDescriptorProto> protos, String name, Map<String, FileDescriptor> built) throws Exception {
    FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = protos.get(name);
    assertNotNull(proto, "the answer lacks the dependency " + name);
    List<FileDescriptor> dependencies = new ArrayList<>();
    for (String dependency : proto.getDependencyList()) {
      dependencies.add(build(protos, dependency, built));
    }
    FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies.toArray(new FileDescriptor[0]));
    built.put(name, file);
    return file;
  }

  @Test
  void listsEveryServiceAndDescribesTheTestServiceWithItsDependencies() throws Exception {
    List<ServerReflectionResponse> answers = ask(
        ServerReflectionRequest.newBuilder().setListServices("").build(),
        ServerReflectionRequest.newBuilder().setFileContainingSymbol("grpc.testing.TestService").build(),
        ServerReflectionRequest.newBuilder().setFileContainingSymbol("grpc.testing.TestService.UnaryCall").build(),
        ServerReflectionRequest.newBuilder().setFileContainingSymbol("grpc.testing.SimpleRequest").build(),
        ServerReflectionRequest.newBuilder().setFileContainingSymbol("no.such.Symbol").build(),
        ServerReflectionRequest.newBuilder().setAllExtensionNumbersOfType("grpc.testing.SimpleRequest").build());
    assertEquals(6, answers.size());

    List<String> services = answers.get(0).getListServicesResponse().getServiceList().stream()
        .map(ServiceResponse::getName).collect(Collectors.toList());
    assertTrue(services.containsAll(List.of("grpc.testing.TestService", "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection")), services.toString());

    List<ByteString> files = answers.get(1).getFileDescriptorResponse().getFileDescriptorProtoList();
    FileDescriptor file = build(files, FileDescriptorProto.parseFrom(files.get(0)).getName());
    ServiceDescriptor testService = file.findServiceByName("TestService");
    assertNotNull(testService, file.toProto().toString());
    MethodDescriptor unary = testService.findMethodByName("UnaryCall");
    assertEquals("grpc.testing.SimpleRequest", unary.getInputType().getFullName());
    assertEquals("grpc.testing.SimpleResponse", unary.getOutputType().getFullName());
    MethodDescriptor fullDuplex = testService.findMethodByName("FullDuplexCall");
    assertTrue(fullDuplex.isClientStreaming() && fullDuplex.isServerStreaming());
    MethodDescriptor streamingOutput = testService.findMethodByName("StreamingOutputCall");
    assertTrue(!streamingOutput.isClientStreaming() && streamingOutput.isServerStreaming());
    assertEquals(files, answers.get(2).getFileDescriptorResponse().getFileDescriptorProtoList());

    FileDescriptor messages = build(answers.get(3).getFileDescriptorResponse().getFileDescriptorProtoList(),
        FileDescriptorProto.parseFrom(answers.get(3).getFileDescriptorResponse().getFileDescriptorProto(0)).getName());
    assertNotNull(messages.findMessageTypeByName("SimpleRequest"));

    assertEquals(io.grpc.Status.Code.NOT_FOUND.value(), answers.get(4).getErrorResponse().getErrorCode());
    assertEquals("no.such.Symbol", answers.get(4).getOriginalRequest().getFileContainingSymbol());
    assertEquals("grpc.testing.SimpleRequest", answers.get(5).getAllExtensionNumbersResponse().getBaseTypeName());
  }

  @Test
  void fileByFilenameAndTheV1alphaService() throws Exception {
    ServerReflectionResponse health = ask(ServerReflectionRequest.newBuilder()
        .setFileContainingSymbol("grpc.health.v1.Health").build()).get(0);
    FileDescriptorProto healthFile = FileDescriptorProto.parseFrom(
        health.getFileDescriptorResponse().getFileDescriptorProto(0));
    assertEquals("grpc/health/v1/health.proto", healthFile.getName());
    ServerReflectionResponse byName = ask(ServerReflectionRequest.newBuilder()
        .setFileByFilename("grpc/health/v1/health.proto").build()).get(0);
    assertEquals(healthFile, FileDescriptorProto.parseFrom(byName.getFileDescriptorResponse().getFileDescriptorProto(0)));

    Answers<io.grpc.reflection.v1alpha.ServerReflectionResponse> alpha = new Answers<>();
    StreamObserver<io.grpc.reflection.v1alpha.ServerReflectionRequest> stream =
        io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .serverReflectionInfo(alpha);
    stream.onNext(io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder().setListServices("*").build());
    stream.onCompleted();
    List<io.grpc.reflection.v1alpha.ServerReflectionResponse> answers = alpha.await();
    assertTrue(answers.get(0).getListServicesResponse().getServiceList().stream()
        .anyMatch(s -> s.getName().equals("grpc.testing.TestService")));
  }
}
