package io.triplerpc.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.testing.FaultProxy.Direction;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy between two raw sockets the test holds both ends of: a client it connects and the
 * target's side of the same connection, so each fault is checked at both ends.
 */
class FaultProxyTest {

  /** Generous: reads that should succeed fail the test only if the proxy is broken. */
  private static final int READ_TIMEOUT_MILLIS = 10_000;

  private final List<Socket> sockets = new ArrayList<>();
  private Target target;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    target = new Target();
    proxy = FaultProxy.start(target.address());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    for (Socket s : sockets) {
      s.close();
    }
    target.close();
  }

  @Test
  void bytesPassBothWaysAndAreCounted() throws Exception {
    Link link = connect();
    send(link.client, "hello");
    assertEquals("hello", receive(link.server, 5));
    send(link.server, "world!");
    assertEquals("world!", receive(link.client, 6));

    assertEquals(1, proxy.connectionsAccepted());
    assertEquals(5, proxy.bytesForwarded(Direction.UPSTREAM));
    assertEquals(6, proxy.bytesForwarded(Direction.DOWNSTREAM));
    assertEquals(11, proxy.bytesForwarded());
    assertEquals(1, proxy.openConnections());
  }

  @Test
  void droppedBytesNeverArriveAndForwardingResumesAfterPass() throws Exception {
    Link link = connect();
    proxy.drop();
    send(link.client, "lost");
    send(link.server, "gone");
    proxy.awaitBytesDropped(8);

    proxy.pass();
    send(link.client, "kept");
    send(link.server, "back");
    // The first bytes each side sees are the ones sent after pass(): the others are gone for good.
    assertEquals("kept", receive(link.server, 4));
    assertEquals("back", receive(link.client, 4));
    assertEquals(8, proxy.bytesForwarded());
  }

  @Test
  void dropInOneDirectionLeavesTheOtherFlowing() throws Exception {
    Link link = connect();
    proxy.drop(Direction.UPSTREAM);
    send(link.client, "lost");
    send(link.server, "down");
    assertEquals("down", receive(link.client, 4));
    proxy.awaitBytesDropped(4);
    proxy.pass(Direction.UPSTREAM);
    send(link.client, "up");
    assertEquals("up", receive(link.server, 2));
  }

  @Test
  void pausedBytesAreHeldAndDeliveredInOrderOnPass() throws Exception {
    Link link = connect();
    proxy.pause(Direction.UPSTREAM);
    send(link.client, "first,");
    send(link.client, "second");
    // The other way still flows, so the connection is up while upstream bytes wait.
    send(link.server, "down");
    assertEquals("down", receive(link.client, 4));
    assertEquals(0, proxy.bytesForwarded(Direction.UPSTREAM));

    proxy.pass();
    assertEquals("first,second", receive(link.server, 12));
  }

  @Test
  void delayedBytesArriveAndNothingOvertakesThem() throws Exception {
    Link link = connect();
    proxy.delay(Duration.ofMillis(200));
    send(link.client, "slow,");
    // Bytes read after the delay is lifted still queue behind the delayed ones.
    proxy.delay(Duration.ZERO);
    send(link.client, "fast");
    assertEquals("slow,fast", receive(link.server, 9));
    send(link.server, "ok");
    assertEquals("ok", receive(link.client, 2));
  }

  @Test
  void resetMakesBothSidesSeeTheConnectionReset() throws Exception {
    Link link = connect();
    assertEquals(1, proxy.reset());
    assertThrows(SocketException.class, () -> link.client.getInputStream().read(), "client read after reset");
    assertThrows(SocketException.class, () -> link.server.getInputStream().read(), "server read after reset");
    proxy.awaitOpenConnections(0);
  }

  @Test
  void closeAllClosesBothSidesCleanly() throws Exception {
    Link link = connect();
    assertEquals(1, proxy.closeAll());
    assertEquals(-1, link.client.getInputStream().read(), "client sees end of stream");
    assertEquals(-1, link.server.getInputStream().read(), "server sees end of stream");
  }

  @Test
  void aCloseIsPassedOnAfterTheBytesBeforeItAndTheOtherWayStillFlows() throws Exception {
    Link link = connect();
    proxy.delay(Direction.UPSTREAM, Duration.ofMillis(100));
    send(link.client, "last words");
    link.client.shutdownOutput();
    assertEquals("last words", receive(link.server, 10));
    assertEquals(-1, link.server.getInputStream().read());

    // Half closed: the other way still flows until the target closes too.
    send(link.server, "reply");
    assertEquals("reply", receive(link.client, 5));
    link.server.close();
    assertEquals(-1, link.client.getInputStream().read());
    proxy.awaitOpenConnections(0);
  }

  @Test
  void refusedConnectionsAreResetWhileOpenOnesCarryOn() throws Exception {
    Link open = connect();
    proxy.refuse();
    Socket refused = newClient();
    assertThrows(SocketException.class, () -> refused.getInputStream().read(), "a refused connection is reset");
    assertEquals(1, proxy.connectionsRefused());
    assertNull(target.accepted.poll(), "a refused connection never reaches the target");

    send(open.client, "still");
    assertEquals("still", receive(open.server, 5));

    proxy.accept();
    Link later = connect();
    send(later.client, "in");
    assertEquals("in", receive(later.server, 2));
    assertEquals(3, proxy.connectionsAccepted());
  }

  @Test
  void aTargetThatRefusesResetsTheClient() throws Exception {
    InetSocketAddress gone;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      gone = (InetSocketAddress) s.getLocalSocketAddress();
    }
    try (FaultProxy toNowhere = FaultProxy.start(gone)) {
      Socket client = track(new Socket(InetAddress.getLoopbackAddress(), toNowhere.port()));
      client.setSoTimeout(READ_TIMEOUT_MILLIS);
      assertThrows(SocketException.class, () -> client.getInputStream().read());
    }
  }

  @Test
  void bytesStillDelayedAreReleasedWhenTheProxyCloses() throws Exception {
    Link link = connect();
    proxy.delay(Duration.ofHours(1));
    send(link.client, "never");
    send(link.server, "never");
    // The leak detector (LeakDetectionExtension) fails the test if the queued buffers outlive close().
    proxy.close();
    assertEquals(0, proxy.openConnections());
    assertEnded(link.client);
    assertEnded(link.server);
  }

  /**
   * The connection is over: end of stream, or a reset where the proxy closed its socket before it had
   * read what this side sent (the kernel resets rather than closes a socket with unread input).
   */
  private static void assertEnded(Socket s) {
    try {
      assertEquals(-1, s.getInputStream().read());
    } catch (SocketException reset) {
      // Ended too.
    } catch (IOException e) {
      throw new AssertionError("neither end of stream nor reset", e);
    }
  }

  /** A client connected through the proxy and the target's side of that connection. */
  private record Link(Socket client, Socket server) {}

  private Link connect() throws Exception {
    Socket client = newClient();
    Socket server = target.accepted.poll(10, TimeUnit.SECONDS);
    if (server == null) {
      throw new AssertionError("the target accepted no connection through the proxy");
    }
    track(server).setSoTimeout(READ_TIMEOUT_MILLIS);
    return new Link(client, server);
  }

  private Socket newClient() throws IOException {
    Socket client = track(new Socket(InetAddress.getLoopbackAddress(), proxy.port()));
    client.setSoTimeout(READ_TIMEOUT_MILLIS);
    return client;
  }

  private Socket track(Socket s) {
    sockets.add(s);
    return s;
  }

  private static void send(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes(US_ASCII));
    s.getOutputStream().flush();
  }

  private static String receive(Socket s, int length) throws IOException {
    InputStream in = s.getInputStream();
    return new String(in.readNBytes(length), US_ASCII);
  }

  /** A plain TCP server whose accepted sockets the test reads and writes itself. */
  private static final class Target implements AutoCloseable {
    final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final BlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
    private final Thread acceptor;

    Target() throws IOException {
      acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(socket.accept());
          }
        } catch (IOException closed) {
          // close() ends the loop.
        }
      }, "fault-proxy-test-target");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    InetSocketAddress address() {
      return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
      socket.close();
      for (Socket s : accepted) {
        s.close();
      }
    }
  }
}
