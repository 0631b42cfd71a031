package io.triplerpc.shaded.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.Version;
import io.triplerpc.Transport;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.testing.ReachableChannels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * An application on Spring Boot 3.5's dependency management, with its Netty 4.1 and Reactor Netty on the
 * class path: a Triple server and client from triple-netty-shaded serve and call over epoll on their own
 * relocated Netty, and Reactor Netty's HTTP client calls the same Triple server over epoll on the
 * application's Netty, both native libraries loaded side by side in one JVM.
 */
class BesideNetty41Test {

  /** Plain Java types: hessian2 over gRPC, JSON over HTTP/1.1. */
  @TripleService(name = "shaded.Greeter")
  public interface Greeter {
    String greet(String name);
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final String SHADED = "io.triplerpc.shaded.io.netty.channel.epoll.";
  private static final String SHADED_CHANNEL = "io.triplerpc.shaded.io.netty.channel.Channel";

  private static TripleServer server;
  private static TripleClient client;
  private static LoopResources appLoops;
  private static ConnectionProvider appConnections;

  @BeforeAll
  static void start() {
    // Epoll is Linux's; elsewhere both Netty copies run NIO and there is nothing native to tell apart.
    assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "Linux");
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Greeter.class, name -> "Hello, " + name)
        .build()
        .start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    appLoops = LoopResources.create("app-netty", 1, true);
    appConnections = ConnectionProvider.create("app-connections", 1);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown();
      assertTrue(server.awaitTermination(TIMEOUT), "the Triple server stopped");
    }
    if (appConnections != null) {
      appConnections.disposeLater().block(TIMEOUT);
    }
    if (appLoops != null) {
      appLoops.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
    }
  }

  @Test
  void tripleServesAndCallsOnEpollChannelsOfItsRelocatedNetty() throws Exception {
    assertEquals("Hello, Ada", client.proxy(Greeter.class).greet("Ada"));

    assertEquals(Set.of(SHADED + "EpollServerSocketChannel", SHADED + "EpollSocketChannel"),
        ReachableChannels.of(server, SHADED_CHANNEL), "the server's listening and accepted channels");
    assertEquals(Set.of(SHADED + "EpollSocketChannel"), ReachableChannels.of(client, SHADED_CHANNEL), "the client's connection");
  }

  /** io_uring's native library is inside too, renamed as epoll's: the relocated classes find it. */
  @Test
  void tripleServesAndCallsOnIoUringChannelsOfItsRelocatedNettyWhenAsked() throws Exception {
    String uring = "io.triplerpc.shaded.io.netty.channel.uring.";
    TripleServer onUring = TripleServer.builder().host("127.0.0.1").port(0).transport(Transport.IO_URING)
        .addService(Greeter.class, name -> "Hello, " + name)
        .build()
        .start();
    try (TripleClient toUring = TripleClient.builder().address("127.0.0.1", onUring.port())
        .transport(Transport.IO_URING).build()) {
      assertEquals("Hello, Ada", toUring.proxy(Greeter.class).greet("Ada"));

      assertEquals(Set.of(uring + "IoUringServerSocketChannel", uring + "IoUringSocketChannel"),
          ReachableChannels.of(onUring, SHADED_CHANNEL), "the server's listening and accepted channels");
      assertEquals(Set.of(uring + "IoUringSocketChannel"), ReachableChannels.of(toUring, SHADED_CHANNEL));
    } finally {
      onUring.shutdownNow();
      assertTrue(onUring.awaitTermination(TIMEOUT), "the io_uring server stopped");
    }
  }

  @Test
  void reactorNettyOnTheApplicationsNetty41CallsTheTripleServerOverEpoll() throws IOException {
    assertTrue(Version.identify().get("netty-common").artifactVersion().startsWith("4.1."),
        "the application's Netty is Boot 3.5's 4.1: " + Version.identify());
    AtomicReference<String> channel = new AtomicReference<>();
    HttpClient http = HttpClient.create(appConnections)
        .runOn(appLoops)
        .protocol(HttpProtocol.HTTP11)
        .doOnConnected(connection -> channel.set(connection.channel().getClass().getName()));

    String answer = http
        .headers(headers -> headers.set(HttpHeaderNames.CONTENT_TYPE, "application/json"))
        .post()
        .uri("http://127.0.0.1:" + server.port() + "/shaded.Greeter/greet")
        .send(ByteBufFlux.fromString(Mono.just("\"Bob\"")))
        .responseSingle((response, body) -> body.asString().defaultIfEmpty("")
            .map(text -> response.status().code() + " " + text.strip()))
        .block(TIMEOUT);

    assertEquals("200 \"Hello, Bob\"", answer);
    assertEquals("io.netty.channel.epoll.EpollSocketChannel", channel.get(), "Reactor Netty's connection");
    // Both copies of the epoll library are mapped, each under its own name: neither replaced the other.
    String maps = Files.readString(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1);
    assertTrue(maps.contains("/libio_triplerpc_shaded_netty_transport_native_epoll_"), "Triple's epoll library");
    assertTrue(maps.contains("/libnetty_transport_native_epoll_"), "the application's epoll library");
  }
}
