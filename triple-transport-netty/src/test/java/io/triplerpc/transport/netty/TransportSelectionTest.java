package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.Transport;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.ReachableChannels;
import io.triplerpc.transport.netty.internal.IoTransport;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@code transport(...)} asks for is what runs: the channels a server and a client really opened are
 * of that transport's classes, whatever {@code -Dio.triplerpc.transport} the JVM runs with; and a
 * transport that cannot run fails the server's start and the client's build, saying why.
 */
class TransportSelectionTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("over").build();

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  @ParameterizedTest
  @EnumSource(value = Transport.class, names = {"IO_URING", "EPOLL", "NIO"})
  void theServerAndTheClientRunOnTheTransportAskedFor(Transport transport) throws Exception {
    IoTransport io = IoTransport.valueOf(transport.name());
    assumeTrue(io.isAvailable(), () -> io + " cannot run here: " + io.unavailabilityCause());
    TripleServer server = fixture.startServer(builder -> builder.transport(transport));
    TripleClient client = fixture.newClient(builder -> builder.transport(transport));

    assertEquals("over", client.proxy(EchoService.class).echo(HELLO).getMessage());

    String socket = io.socketChannel().getName();
    assertEquals(Set.of(io.serverSocketChannel().getName(), socket),
        ReachableChannels.of(server, ReachableChannels.NETTY_CHANNEL), "the listening and the accepted channel");
    assertEquals(Set.of(socket), ReachableChannels.of(client, ReachableChannels.NETTY_CHANNEL), "the connection");
  }

  @Test
  void clientsOfTwoTransportsShareNeitherLoopsNorChannelClasses() throws Exception {
    assumeTrue(IoTransport.IO_URING.isAvailable() && IoTransport.EPOLL.isAvailable(), "io_uring and epoll");
    fixture.startServer(builder -> builder.transport(Transport.EPOLL));
    TripleClient uring = fixture.newClient(builder -> builder.transport(Transport.IO_URING));
    TripleClient epoll = fixture.newClient(builder -> builder.transport(Transport.EPOLL));

    assertEquals("over", uring.proxy(EchoService.class).echo(HELLO).getMessage());
    assertEquals("over", epoll.proxy(EchoService.class).echo(HELLO).getMessage());

    assertEquals(Set.of("io.netty.channel.uring.IoUringSocketChannel"),
        ReachableChannels.of(uring, ReachableChannels.NETTY_CHANNEL));
    assertEquals(Set.of("io.netty.channel.epoll.EpollSocketChannel"),
        ReachableChannels.of(epoll, ReachableChannels.NETTY_CHANNEL));
  }

  @Test
  void autoPrefersIoUringThenEpollThenNio() {
    IoTransport expected = IoTransport.IO_URING.isAvailable() ? IoTransport.IO_URING
        : IoTransport.EPOLL.isAvailable() ? IoTransport.EPOLL : IoTransport.NIO;
    assertEquals(expected, IoTransport.resolve(Transport.AUTO));
  }

  /**
   * In a JVM of its own, where Netty's {@code -Dio.netty.transport.noNative=true} makes io_uring and epoll
   * really unavailable (Netty decides once per JVM, as it loads its native library).
   */
  @Test
  void aTransportThatCannotRunFailsStartAndBuildWithNettysReason(@TempDir Path dir) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path report = dir.resolve("errors.txt");
    List<String> command = List.of(java.toString(), "-Dio.netty.transport.noNative=true",
        "-cp", System.getProperty("java.class.path"), WithoutNativeTransports.class.getName(), report.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), log);
    assertEquals(0, process.exitValue(), log);
    String output = Files.readString(report);

    String reason = "which cannot run here: java.lang.UnsupportedOperationException: Native transport was"
        + " explicit disabled with -Dio.netty.transport.noNative=true";
    assertTrue(output.contains("server: transport(Transport.IO_URING) asks for io_uring, " + reason), output);
    assertTrue(output.contains("client: transport(Transport.IO_URING) asks for io_uring, " + reason), output);
    assertTrue(output.contains("property: -Dio.triplerpc.transport=io_uring asks for io_uring, " + reason), output);
    assertTrue(output.contains("epoll: transport(Transport.EPOLL) asks for epoll, which cannot run here: "), output);
    assertTrue(output.contains("misspelt: -Dio.triplerpc.transport=uring names no transport: auto, io_uring, epoll"
        + " or nio"), output);
    assertTrue(output.contains("auto: nio serves"), output);
  }

  /**
   * Asks for each transport the JVM cannot run and writes each error, a line each, to the file its argument
   * names; then serves and calls on AUTO.
   */
  static final class WithoutNativeTransports {

    private static final StringBuilder lines = new StringBuilder();

    public static void main(String[] args) throws IOException {
      print("server", () -> TripleServer.builder().host("127.0.0.1").port(0).transport(Transport.IO_URING).build()
          .start());
      // A client of one address makes its transport as it is built; the check comes first all the same.
      print("client", () -> TripleClient.builder().address("127.0.0.1", 1).transport(Transport.IO_URING).build());
      print("epoll", () -> TripleClient.builder().address("127.0.0.1", 1).transport(Transport.EPOLL).build());
      System.setProperty(IoTransport.PROPERTY, "io_uring");
      print("property", () -> TripleServer.builder().host("127.0.0.1").port(0).build().start());
      System.setProperty(IoTransport.PROPERTY, "uring");
      print("misspelt", () -> TripleClient.builder().address("127.0.0.1", 1).build());
      System.clearProperty(IoTransport.PROPERTY);
      TripleServer server = TripleServer.builder().host("127.0.0.1").port(0).transport(Transport.AUTO)
          .addService(EchoService.class, new EchoServiceImpl()).build().start();
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port())
          .transport(Transport.AUTO).build()) {
        String reply = client.proxy(EchoService.class).echo(HELLO).getMessage();
        lines.append("auto: ").append(IoTransport.resolve(Transport.AUTO)).append(" serves ").append(reply);
      } finally {
        server.shutdownNow();
      }
      Files.writeString(Path.of(args[0]), lines);
    }

    private static void print(String what, Runnable attempt) {
      try {
        attempt.run();
        lines.append(what).append(": no error\n");
      } catch (IllegalStateException e) {
        lines.append(what).append(": ").append(e.getMessage()).append('\n');
      }
    }
  }
}
