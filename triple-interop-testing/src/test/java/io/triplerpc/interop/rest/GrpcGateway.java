package io.triplerpc.interop.rest;

import io.triplerpc.testing.GoTools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * grpc-gateway v2 as a process in front of a gRPC server: {@code src/test/go/gateway} built once into
 * {@code target/grpc-gateway/<hash of its inputs>/}, with its Go code generated from {@code library.proto}
 * at build time, so nothing generated is kept in the repository and a machine needs only Go (and the module
 * proxy) beside what the Maven build brings.
 *
 * <p>The build: {@code go build tool} makes protoc-gen-go, protoc-gen-go-grpc and protoc-gen-grpc-gateway at
 * the versions the gateway's {@code go.mod} pins; the protoc that the Maven build copied into
 * {@code target/grpc-gateway/protoc.exe} (system property {@code triple.protoc}) runs them over
 * {@code library.proto}, with {@code google/api/*.proto} and {@code google/protobuf/*.proto} taken from the
 * test class path (proto-google-common-protos and protobuf-java carry them); then {@code go build}.
 */
final class GrpcGateway implements AutoCloseable {

  private static final String MODULE = "github.com/triplerpc/triple/interop/gateway";
  private static final List<String> GO_SOURCES = List.of("go.mod", "go.sum", "main.go");
  private static final String PROTO = "rest/v1/library.proto";
  private static final List<String> IMPORTS = List.of(
      "google/api/annotations.proto", "google/api/http.proto", "google/protobuf/descriptor.proto",
      "google/protobuf/duration.proto", "google/protobuf/empty.proto", "google/protobuf/field_mask.proto",
      "google/protobuf/timestamp.proto", "google/protobuf/wrappers.proto");

  private final Process process;
  private final int port;

  private GrpcGateway(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The port grpc-gateway serves HTTP/1.1 on, at 127.0.0.1. */
  int port() {
    return port;
  }

  /** Why the gateway cannot be built here (no Go, no protoc), or null if it can. */
  static String unavailable() {
    if (GoTools.find("go") == null) {
      return "Go is not installed: grpc-gateway, the reference for REST transcoding, cannot be built";
    }
    if (!Files.isRegularFile(protoc())) {
      return "no protoc at " + protoc() + " (the Maven build copies it there: run the test through Maven)";
    }
    return null;
  }

  /**
   * The gateway's executable, built now unless a build from the same inputs is already there.
   *
   * @throws IllegalStateException with the build's output if a step fails
   */
  static synchronized Path build() throws IOException, InterruptedException {
    Path base = moduleDir();
    Path sources = base.resolve("src/test/go/gateway");
    Path proto = base.resolve("src/test/proto").resolve(PROTO);
    Path dir = base.resolve("target/grpc-gateway").resolve(hash(sources, proto));
    Path executable = dir.resolve("gateway");
    if (Files.isExecutable(executable)) {
      return executable;
    }
    Path work = dir.resolve("src");
    Path include = dir.resolve("include");
    Path bin = dir.resolve("bin");
    Files.createDirectories(work);
    Files.createDirectories(bin);
    for (String name : GO_SOURCES) {
      Files.copy(sources.resolve(name), work.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
    Files.createDirectories(include.resolve(PROTO).getParent());
    Files.copy(proto, include.resolve(PROTO), StandardCopyOption.REPLACE_EXISTING);
    for (String name : IMPORTS) {
      try (InputStream in = GrpcGateway.class.getClassLoader().getResourceAsStream(name)) {
        if (in == null) {
          throw new IllegalStateException(name + " is not on the test class path");
        }
        Files.createDirectories(include.resolve(name).getParent());
        Files.copy(in, include.resolve(name), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Path protoc = dir.resolve("protoc");
    Files.copy(protoc(), protoc, StandardCopyOption.REPLACE_EXISTING);
    protoc.toFile().setExecutable(true);

    Path log = dir.resolve("build.log");
    String go = GoTools.find("go").toString();
    run(work, log, go, "build", "-o", bin + "/", "tool");
    run(work, log, protoc.toString(), "-I", include.toString(),
        "--plugin=protoc-gen-go=" + bin.resolve("protoc-gen-go"),
        "--plugin=protoc-gen-go-grpc=" + bin.resolve("protoc-gen-go-grpc"),
        "--plugin=protoc-gen-grpc-gateway=" + bin.resolve("protoc-gen-grpc-gateway"),
        "--go_out=.", "--go_opt=module=" + MODULE,
        "--go-grpc_out=.", "--go-grpc_opt=module=" + MODULE,
        "--grpc-gateway_out=.", "--grpc-gateway_opt=module=" + MODULE,
        PROTO);
    Path building = dir.resolve("gateway.partial");
    run(work, log, go, "build", "-o", building.toString(), ".");
    Files.move(building, executable, StandardCopyOption.REPLACE_EXISTING);
    return executable;
  }

  /** Starts the gateway in front of the gRPC server at {@code 127.0.0.1:grpcPort}. */
  static GrpcGateway start(Path executable, int grpcPort) throws IOException {
    Path log = executable.resolveSibling("gateway.log");
    Process process = new ProcessBuilder(executable.toString(),
        "-grpc", "127.0.0.1:" + grpcPort, "-listen", "127.0.0.1:0")
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    // The gateway prints its port as its first line; nothing more comes on stdout.
    BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = stdout.readLine();
    if (line == null) {
      process.destroyForcibly();
      throw new IllegalStateException("grpc-gateway exited before it listened: " + Files.readString(log));
    }
    return new GrpcGateway(process, Integer.parseInt(line.trim()));
  }

  /** Closes the gateway's stdin, on which it exits; kills it if it has not within ten seconds. */
  @Override
  public void close() throws IOException, InterruptedException {
    process.getOutputStream().close();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static Path protoc() {
    String path = System.getProperty("triple.protoc");
    return path != null ? Path.of(path) : moduleDir().resolve("target/grpc-gateway/protoc.exe");
  }

  private static Path moduleDir() {
    return Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
  }

  /** The first 16 hex digits of a SHA-256 over the build's inputs. */
  private static String hash(Path sources, Path proto) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    List<Path> inputs = new ArrayList<>();
    GO_SOURCES.forEach(name -> inputs.add(sources.resolve(name)));
    inputs.add(proto);
    for (Path input : inputs) {
      digest.update(input.getFileName().toString().getBytes(StandardCharsets.UTF_8));
      digest.update(Files.readAllBytes(input));
    }
    return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
  }

  /** Runs a build step in {@code dir}, its output appended to {@code log}; throws with the log if it fails. */
  private static void run(Path dir, Path log, String... command) throws IOException, InterruptedException {
    Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // No VCS stamping (the sources sit in a git work tree, copied out of it) and no go.work from above.
    Map<String, String> env = builder.environment();
    env.put("GOFLAGS", "-buildvcs=false");
    env.put("GOWORK", "off");
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException("timed out: " + String.join(" ", command) + "\n" + Files.readString(log));
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("failed (" + process.exitValue() + "): " + String.join(" ", command)
          + "\n" + Files.readString(log));
    }
  }
}
