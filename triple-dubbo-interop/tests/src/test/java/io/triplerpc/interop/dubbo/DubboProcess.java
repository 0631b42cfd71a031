package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Dubbo peer (triple-dubbo-interop/peer) in a JVM of its own, with Dubbo's class path: started by
 * a test class, ended in its {@code @AfterAll}. Its standard output is read line by line on a thread
 * of its own; its standard error (Dubbo's log) goes to {@code target/dubbo-<mode>-<n>.log}, whose end is
 * quoted when something fails. The peer exits when its standard input closes, so a test JVM that dies
 * leaves no Dubbo behind.
 *
 * <p>A consumer is driven with {@link #call}: one JSON command per line, one JSON answer per line
 * (the peer's {@code ConsumerCommands} describes both). Not thread-safe: one call at a time.
 */
final class DubboProcess implements AutoCloseable {

  /** Keeps decimals as written (1.50 stays 1.50: Jackson's trees strip trailing zeros by default). */
  static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
      .build();
  private static final String END = "\0end";
  private static final long START_SECONDS = 60;
  private static final long ANSWER_SECONDS = 30;
  /** Peers started by this JVM, to give each its own log. */
  private static final java.util.concurrent.atomic.AtomicInteger STARTED = new java.util.concurrent.atomic.AtomicInteger();

  private final Process process;
  private final Writer input;
  private final BlockingQueue<String> output = new LinkedBlockingQueue<>();
  private final Path log;
  private int port;
  private int nextId;

  private DubboProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.input = process.outputWriter(StandardCharsets.UTF_8);
    Thread reader = new Thread(this::readOutput, "dubbo-peer-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** A Dubbo provider of the interop services on a free port, exported and accepting connections. */
  static DubboProcess provider(String... options) throws IOException, InterruptedException {
    return start("provider", List.of(options));
  }

  /** A Dubbo consumer of the interop services at {@code host:port} (a direct URL), ready for commands. */
  static DubboProcess consumer(String address, String... options) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of(options));
    args.add("--address=" + address);
    return start("consumer", args);
  }

  /**
   * A Dubbo consumer of the interop services that finds its providers through application-level
   * discovery on the ZooKeeper at {@code registry} ({@code host:port}), ready for commands (its
   * providers may not be known yet).
   */
  static DubboProcess discoveringConsumer(String registry, String... options) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of(options));
    args.add("--registry=" + registry);
    return start("consumer", args);
  }

  private static DubboProcess start(String mode, List<String> options) throws IOException, InterruptedException {
    Path home = Path.of(System.getProperty("dubbo.peer.home", "../peer/target"));
    if (!Files.isDirectory(home.resolve("classes")) || !Files.isDirectory(home.resolve("lib"))) {
      fail("the Dubbo peer is not built at " + home.toAbsolutePath()
          + " (build triple-dubbo-interop/peer first: it copies Dubbo's class path to target/lib)");
    }
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        // Otherwise Dubbo's consumer replaces 127.0.0.1 in the direct URL with the host's address.
        "-Ddubbo.network.interface.ignored=.*",
        // Dubbo's JSON lookup walks its ServiceLoader past fastjson2 to fastjson 1, which is not on the class
        // path: on Java 17 it is passed over, but on JDK 25 ServiceLoader.hasNext throws NoClassDefFoundError there,
        // which Dubbo 3.3.6 does not catch, and the peer cannot start. Named first, fastjson2 ends the walk.
        "-Ddubbo.json-framework.prefer=fastjson2",
        "-cp", home.resolve("classes") + File.pathSeparator + apiClasses() + File.pathSeparator
            + home.resolve("lib") + File.separator + "*",
        "io.triplerpc.interop.dubbo.peer.DubboPeer", mode));
    command.addAll(options);
    Path log = Path.of("target", "dubbo-" + mode + "-" + STARTED.incrementAndGet() + ".log");
    Files.createDirectories(log.getParent());
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    DubboProcess peer = new DubboProcess(process, log);
    String ready = peer.next(START_SECONDS, "READY");
    if (!ready.startsWith("READY")) {
      peer.close();
      fail("the Dubbo " + mode + " said " + ready + " instead of READY" + peer.logTail());
    }
    if (mode.equals("provider")) {
      peer.port = Integer.parseInt(ready.substring("READY ".length()).trim());
    }
    return peer;
  }

  /** The shared values' classes (triple-dubbo-interop/api), which the peer runs with as they are built. */
  private static Path apiClasses() {
    Path classes = Path.of(System.getProperty("dubbo.api.classes", "../api/target/classes"));
    if (!Files.isDirectory(classes)) {
      fail("the shared values are not built at " + classes.toAbsolutePath() + " (build triple-dubbo-interop/api)");
    }
    return classes;
  }

  /** The provider's port. */
  int port() {
    return port;
  }

  /** Calls {@code method} of {@code service} through the consumer's Dubbo reference. */
  JsonNode call(Class<?> service, String method, Object... args) throws IOException, InterruptedException {
    return callWith(service, method, Map.of(), 0, args);
  }

  /**
   * Calls {@code method} of {@code service} with {@code attachments} (request headers) and a timeout
   * ({@code timeoutMillis}, 0 for the reference's) and returns the peer's answer. Protobuf messages
   * among {@code args} travel as the base64 of their encoding.
   */
  JsonNode callWith(Class<?> service, String method, Map<String, String> attachments, long timeoutMillis,
      Object... args) throws IOException, InterruptedException {
    int id = ++nextId;
    ObjectNode command = JSON.createObjectNode();
    command.put("id", id);
    command.put("service", service.getName());
    command.put("method", method);
    ArrayNode array = command.putArray("args");
    for (Object arg : args) {
      array.add(arg instanceof Message message
          ? JSON.getNodeFactory().textNode(Base64.getEncoder().encodeToString(message.toByteArray()))
          : JSON.valueToTree(arg));
    }
    if (!attachments.isEmpty()) {
      command.set("attachments", JSON.valueToTree(attachments));
    }
    if (timeoutMillis > 0) {
      command.put("timeoutMillis", timeoutMillis);
    }
    return send(id, command);
  }

  /**
   * Calls the overload of {@code method} of {@code service} whose parameter types' names are
   * {@code parameterTypes}, through the consumer's Dubbo reference (a consumer started with {@code --overloads}).
   */
  JsonNode callOverload(Class<?> service, String method, List<String> parameterTypes, Object... args)
      throws IOException, InterruptedException {
    int id = ++nextId;
    ObjectNode command = JSON.createObjectNode();
    command.put("id", id);
    command.put("service", service.getName());
    command.put("method", method);
    command.set("parameterTypes", JSON.valueToTree(parameterTypes));
    command.set("args", JSON.valueToTree(args));
    return send(id, command);
  }

  /**
   * Calls {@code method} of {@code service} through the consumer's generic reference
   * ({@code GenericService.$invoke}), with parameter type names {@code types} (null for none) and
   * {@code args} in generic form (maps, lists, scalars).
   */
  JsonNode generic(Class<?> service, String method, String[] types, Object... args)
      throws IOException, InterruptedException {
    int id = ++nextId;
    ObjectNode command = JSON.createObjectNode();
    command.put("id", id);
    command.put("generic", true);
    command.put("service", service.getName());
    command.put("method", method);
    if (types != null) {
      command.set("types", JSON.valueToTree(types));
    }
    command.set("args", JSON.valueToTree(args));
    return send(id, command);
  }

  /**
   * Writes a governance rule through Dubbo's own config center API ({@code DynamicConfiguration
   * .publishConfig(key, "dubbo", content)}, as Dubbo Admin does); a consumer started with a registry only.
   */
  void publishRule(String key, String content) throws IOException, InterruptedException {
    int id = ++nextId;
    ObjectNode command = JSON.createObjectNode().put("id", id).put("publishRule", key).put("content", content);
    JsonNode answer = send(id, command);
    assertTrue(answer.path("ok").asBoolean(), () -> "Dubbo did not publish " + key + ": " + answer);
  }

  /** Removes a governance rule through Dubbo's config center API. */
  void removeRule(String key) throws IOException, InterruptedException {
    int id = ++nextId;
    JsonNode answer = send(id, JSON.createObjectNode().put("id", id).put("removeRule", key));
    assertTrue(answer.path("ok").asBoolean(), () -> "Dubbo did not remove " + key + ": " + answer);
  }

  private JsonNode send(int id, ObjectNode command) throws IOException, InterruptedException {
    input.write(JSON.writeValueAsString(command));
    input.write('\n');
    input.flush();
    String line = next(ANSWER_SECONDS, "the answer to " + command);
    JsonNode answer;
    try {
      answer = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new AssertionError("the Dubbo consumer answered " + line + logTail(), e);
    }
    assertEquals(id, answer.path("id").asInt(), () -> "answer out of order: " + line);
    return answer;
  }

  /** The result of a successful answer, read as {@code type}. */
  static <T> T result(JsonNode answer, Class<T> type) throws JsonProcessingException {
    assertTrue(answer.path("ok").asBoolean(), () -> "the call failed: " + answer);
    return JSON.treeToValue(answer.get("result"), type);
  }

  /** The protobuf messages of a successful streaming answer (or the one of a unary answer), decoded. */
  static <M extends Message> List<M> messages(JsonNode answer, Parser<M> parser)
      throws InvalidProtocolBufferException {
    assertTrue(answer.path("ok").asBoolean(), () -> "the call failed: " + answer);
    JsonNode result = answer.get("result");
    List<M> messages = new ArrayList<>();
    for (JsonNode node : result.isArray() ? result : List.of(result)) {
      messages.add(parser.parseFrom(Base64.getDecoder().decode(node.asText())));
    }
    return messages;
  }

  private String next(long seconds, String what) throws InterruptedException {
    String line = output.poll(seconds, TimeUnit.SECONDS);
    if (line == null) {
      fail("no " + what + " from the Dubbo peer within " + seconds + " s" + logTail());
    }
    if (line.equals(END)) {
      output.add(END);
      boolean exited = process.waitFor(5, TimeUnit.SECONDS);
      fail("the Dubbo peer exited" + (exited ? " with " + process.exitValue() : "") + " before " + what
          + logTail());
    }
    return line;
  }

  private void readOutput() {
    try (BufferedReader reader = process.inputReader(StandardCharsets.UTF_8)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        output.add(line);
      }
    } catch (IOException e) {
      // The process is gone; END says so.
    }
    output.add(END);
  }

  /** The end of the peer's log, for failure messages. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "\n--- end of " + log.toAbsolutePath() + " ---\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return " (no log: " + e + ")";
    }
  }

  /** Closes the peer's input, so it stops; kills it if it has not within 15 s. */
  @Override
  public void close() throws InterruptedException {
    try {
      input.close();
    } catch (IOException e) {
      // Already gone.
    }
    if (!process.waitFor(15, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(15, TimeUnit.SECONDS);
    }
  }
}
