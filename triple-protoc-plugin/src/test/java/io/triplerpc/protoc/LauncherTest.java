package io.triplerpc.protoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real protoc runs bin/protoc-gen-triple, beside its own Java generator. */
class LauncherTest {

  private static final Path MODULE = Paths.get("").toAbsolutePath();

  @TempDir
  Path dir;

  @Test
  void protocRunsTheLauncherAndTheInterfaceNamesTheClassesJavaOutWrites() throws Exception {
    Path protos = Files.createDirectories(dir.resolve("proto/demo"));
    Files.writeString(protos.resolve("greeter.proto"), String.join("\n",
        "syntax = \"proto3\";",
        "package demo;",
        "",
        "// Greets <everyone> */ politely.",
        "service Greeter {",
        "  // Says hello, @once.",
        "  rpc SayHello (HelloRequest) returns (HelloReply) {",
        "    option idempotency_level = NO_SIDE_EFFECTS;",
        "  }",
        "  rpc Chat (stream HelloRequest) returns (stream HelloReply);",
        "}",
        "",
        "message HelloRequest { optional string name = 1; }",
        "message HelloReply { string message = 1; }",
        ""));
    Path out = Files.createDirectories(dir.resolve("out"));
    Path protoc = MODULE.resolve("target/protoc/protoc.exe");
    assertTrue(protoc.toFile().setExecutable(true), "protoc is copied by the build to " + protoc);

    Process process = new ProcessBuilder(protoc.toString(),
        "--plugin=protoc-gen-triple=" + MODULE.resolve("bin/protoc-gen-triple"),
        "--java_out=" + out, "--triple_out=" + out,
        "-I", dir.resolve("proto").toString(), "demo/greeter.proto")
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "protoc ended");
    assertEquals(0, process.exitValue(), output);

    // The service's name is the file's, so protoc's Java generator names the outer class GreeterOuterClass.
    assertEquals(List.of("demo/Greeter.java", "demo/GreeterOuterClass.java"), listed(out));
    String greeter = Files.readString(out.resolve("demo/Greeter.java"));
    assertTrue(greeter.contains("@io.triplerpc.TripleService(name = \"demo.Greeter\", protoFile = demo.GreeterOuterClass.class)"),
        greeter);
    assertTrue(greeter.contains(" * Greets &lt;everyone&gt; *&#47; politely.\n"), greeter);
    assertTrue(greeter.contains("   * Says hello, &#64;once.\n"), greeter);
    assertTrue(greeter.contains("@io.triplerpc.TripleMethod(name = \"SayHello\", idempotent = true)\n"
        + "  default demo.GreeterOuterClass.HelloReply sayHello(demo.GreeterOuterClass.HelloRequest request) {"), greeter);
    assertTrue(greeter.contains("  io.triplerpc.StreamObserver<demo.GreeterOuterClass.HelloRequest> chat("
        + "io.triplerpc.StreamObserver<demo.GreeterOuterClass.HelloReply> responses);"), greeter);
  }

  private static List<String> listed(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).map(path -> root.relativize(path).toString()).sorted().toList();
    }
  }
}
