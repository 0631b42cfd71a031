package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.reflection.ReflectionV1Service;
import io.triplerpc.internal.reflection.v1.ServerReflectionRequest;
import io.triplerpc.internal.reflection.v1.ServerReflectionResponse;
import io.triplerpc.internal.reflection.v1.ServiceResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reflection on a service declared only as a Java interface: the server makes a .proto file for it,
 * importing its messages' files, with each method's streaming shape.
 */
class ReflectionServiceTest {

  @RegisterExtension
  final EchoFixture fixture = new EchoFixture();

  private ServerReflectionResponse ask(ServerReflectionRequest request) throws Exception {
    RecordingObserver<ServerReflectionResponse> answers = new RecordingObserver<>();
    StreamObserver<ServerReflectionRequest> requests =
        fixture.newClient(b -> b).proxy(ReflectionV1Service.class).serverReflectionInfo(answers);
    requests.onNext(request);
    requests.onCompleted();
    answers.awaitCompletion();
    assertEquals(null, answers.error());
    assertEquals(1, answers.values().size());
    return answers.values().get(0);
  }

  @Test
  void aJavaInterfaceServiceGetsAProtoFileMadeForIt() throws Exception {
    ServerReflectionResponse list = ask(ServerReflectionRequest.newBuilder().setListServices("").build());
    assertEquals(List.of("grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection", "triple.test.EchoService"),
        list.getListServicesResponse().getServiceList().stream().map(ServiceResponse::getName)
            .collect(Collectors.toList()));

    ServerReflectionResponse file = ask(ServerReflectionRequest.newBuilder()
        .setFileContainingSymbol("triple.test.EchoService.bidi").build());
    FileDescriptorProto made = FileDescriptorProto.parseFrom(file.getFileDescriptorResponse().getFileDescriptorProto(0));
    assertEquals("triple/triple.test.EchoService.proto", made.getName());
    assertEquals("triple.test", made.getPackage());
    // The file of the messages comes along, so the client can build the descriptor.
    assertTrue(file.getFileDescriptorResponse().getFileDescriptorProtoCount() >= 2);
    assertTrue(made.getDependencyCount() >= 1);
    ServiceDescriptorProto service = made.getService(0);
    assertEquals("EchoService", service.getName());
    Map<String, MethodDescriptorProto> methods = service.getMethodList().stream()
        .collect(Collectors.toMap(MethodDescriptorProto::getName, m -> m));
    assertEquals(5, methods.size(), methods.keySet().toString());
    assertFalse(methods.get("echo").getClientStreaming() || methods.get("echo").getServerStreaming());
    assertFalse(methods.get("serverStream").getClientStreaming());
    assertTrue(methods.get("serverStream").getServerStreaming());
    assertTrue(methods.get("clientStream").getClientStreaming());
    assertFalse(methods.get("clientStream").getServerStreaming());
    assertTrue(methods.get("bidi").getClientStreaming() && methods.get("bidi").getServerStreaming());
    assertTrue(methods.get("echo").getInputType().startsWith("."), methods.get("echo").getInputType());
  }
}
