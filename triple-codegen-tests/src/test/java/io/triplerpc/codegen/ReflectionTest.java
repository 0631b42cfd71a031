package io.triplerpc.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodOptions.IdempotencyLevel;
import com.google.protobuf.Empty;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.codegen.everything.Everything;
import io.triplerpc.codegen.everything.Pinger;
import io.triplerpc.internal.reflection.ReflectionV1Service;
import io.triplerpc.internal.reflection.v1.ServerReflectionRequest;
import io.triplerpc.internal.reflection.v1.ServerReflectionResponse;
import io.triplerpc.testing.GoTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server reflection serves the .proto file a generated interface names (its {@code protoFile}), with its
 * real name, both its services and their options, even for a service whose messages are all imported
 * ({@code Pinger}: Empty to Empty), which reflection could otherwise only describe with a made-up file.
 */
class ReflectionTest {

  private static TripleServer server;
  private static TripleClient client;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Pinger.class, new Pinger() {
          @Override
          public Empty ping(Empty request) {
            return request;
          }
        })
        .addService(Everything.class, new RoundTripTest.BlockingEverything())
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void aServiceOfImportedMessagesIsDescribedByTheFileThatDeclaresIt() throws Exception {
    // Served alone: none of its messages' files declares it, so only its protoFile leads to its file.
    TripleServer alone = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Pinger.class, new Pinger() {
          @Override
          public Empty ping(Empty request) {
            return request;
          }
        })
        .build().start();
    FileDescriptorProto file;
    try (TripleClient toAlone = TripleClient.builder().address("127.0.0.1", alone.port()).build()) {
      file = fileContaining(toAlone, "triple.codegen.Pinger");
    } finally {
      alone.shutdownNow();
      alone.awaitTermination(Duration.ofSeconds(10));
    }
    assertEquals("codegen/everything.proto", file.getName());
    assertEquals("triple.codegen", file.getPackage());
    assertEquals(List.of("Everything", "Pinger"),
        file.getServiceList().stream().map(service -> service.getName()).toList());
    assertEquals("io.triplerpc.codegen.everything", file.getOptions().getJavaPackage());
    assertEquals(List.of("codegen/numbers.proto", "google/protobuf/empty.proto", "google/protobuf/timestamp.proto",
        "google/protobuf/wrappers.proto"), file.getDependencyList());
  }

  /** A hand-written Pinger whose protoFile names a file that does not declare it. */
  @io.triplerpc.TripleService(name = "triple.codegen.Pinger",
      protoFile = io.triplerpc.codegen.numbers.NumbersProto.class)
  interface MisnamedPinger {
    @io.triplerpc.TripleMethod(name = "Ping")
    Empty ping(Empty request);
  }

  /** The same, naming a class that is no outer class at all. */
  @io.triplerpc.TripleService(name = "triple.codegen.Pinger", protoFile = String.class)
  interface NotAProtoFilePinger {
    @io.triplerpc.TripleMethod(name = "Ping")
    Empty ping(Empty request);
  }

  @Test
  void aProtoFileThatDoesNotDeclareTheServiceIsPassedOverForAFileMadeFromTheMethods() throws Exception {
    for (Class<?> pinger : List.of(MisnamedPinger.class, NotAProtoFilePinger.class)) {
      TripleServer alone = pinger == MisnamedPinger.class
          ? TripleServer.builder().host("127.0.0.1").port(0)
              .addService(MisnamedPinger.class, request -> request).build().start()
          : TripleServer.builder().host("127.0.0.1").port(0)
              .addService(NotAProtoFilePinger.class, request -> request).build().start();
      try (TripleClient toAlone = TripleClient.builder().address("127.0.0.1", alone.port()).build()) {
        FileDescriptorProto file = fileContaining(toAlone, "triple.codegen.Pinger");
        assertEquals("triple/triple.codegen.Pinger.proto", file.getName(), pinger.getSimpleName());
        assertEquals("Ping", file.getService(0).getMethod(0).getName());
      } finally {
        alone.shutdownNow();
        alone.awaitTermination(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void theServedFileKeepsTheMethodsOptions() throws Exception {
    FileDescriptorProto file = fileContaining(client, "triple.codegen.Everything.Echo");
    List<MethodDescriptorProto> methods = file.getService(0).getMethodList();
    assertEquals(IdempotencyLevel.NO_SIDE_EFFECTS, methods.get(0).getOptions().getIdempotencyLevel());
    assertEquals("OldEcho", methods.get(3).getName());
    assertTrue(methods.get(3).getOptions().getDeprecated());
  }

  @Test
  void grpcurlDescribesTheRealFile() throws Exception {
    Path grpcurl = GoTools.find("grpcurl");
    assumeTrue(grpcurl != null, "grpcurl is not installed (go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3)");
    Path protoset = dir.resolve("pinger.protoset");
    String describe = run(grpcurl.toString(), "-plaintext", "-max-time", "20", "-protoset-out", protoset.toString(),
        "127.0.0.1:" + server.port(), "describe", "triple.codegen.Everything");
    assertTrue(describe.contains("rpc Echo ( .triple.codegen.EchoRequest ) returns ( .triple.codegen.EchoReply ) {\n"
        + "    option idempotency_level = NO_SIDE_EFFECTS;\n  }"), describe);
    assertTrue(describe.contains("rpc Sum ( stream .triple.codegen.numbers.Number ) returns ( .triple.codegen.numbers.Number );"),
        describe);
    FileDescriptorSet files = FileDescriptorSet.parseFrom(Files.readAllBytes(protoset));
    assertTrue(files.getFileList().stream().anyMatch(file -> file.getName().equals("codegen/everything.proto")),
        files.getFileList().stream().map(FileDescriptorProto::getName).toList().toString());

    String call = run(grpcurl.toString(), "-plaintext", "-max-time", "20", "127.0.0.1:" + server.port(),
        "triple.codegen.Pinger/Ping");
    assertEquals("{}", call.trim());
  }

  /** The first file of a reflection answer: the one declaring {@code symbol}. */
  private static FileDescriptorProto fileContaining(TripleClient client, String symbol) throws Exception {
    CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> requests = client.proxy(ReflectionV1Service.class)
        .serverReflectionInfo(new StreamObserver<>() {
          @Override
          public void onNext(ServerReflectionResponse value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {
            answer.completeExceptionally(new IllegalStateException("no answer"));
          }
        });
    requests.onNext(ServerReflectionRequest.newBuilder().setFileContainingSymbol(symbol).build());
    requests.onCompleted();
    List<ByteString> files = answer.get(10, TimeUnit.SECONDS).getFileDescriptorResponse().getFileDescriptorProtoList();
    assertTrue(!files.isEmpty(), "no file for " + symbol);
    return FileDescriptorProto.parseFrom(files.get(0));
  }

  private static String run(String... command) throws Exception {
    Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "hung: " + String.join(" ", command));
    assertEquals(0, process.exitValue(), output);
    return output;
  }
}
