package io.triplerpc.interop.seeds;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay on loopback that passes each connection's bytes to a server unchanged and keeps a copy
 * of what went each way: how {@link FuzzSeedRecorder} sees what real clients send and real servers
 * answer. A FIN from one side is passed on as a FIN (half-close), so each side ends its connection as
 * it would without the relay.
 *
 * <p>Two threads per connection, plain blocking sockets: the relay carries a handful of short
 * connections, one at a time, and is no model for a proxy.
 */
final class RecordingRelay implements AutoCloseable {

  /** One connection as it went: every byte the client sent, and every byte the server answered. */
  record Connection(byte[] upstream, byte[] downstream) {}

  private final ServerSocket listener;
  private final InetSocketAddress target;
  /** Connections whose both directions have ended, in the order they ended. */
  private final BlockingQueue<Connection> ended = new LinkedBlockingQueue<>();

  private RecordingRelay(ServerSocket listener, InetSocketAddress target) {
    this.listener = listener;
    this.target = target;
    Thread acceptor = new Thread(this::accept, "recording-relay-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * Listens on 127.0.0.1 at {@code port} and relays to {@code target}. A fixed port, not a free one:
   * clients name it in their {@code Host} or {@code :authority}, so that a recording made again is the
   * same bytes.
   */
  static RecordingRelay start(int port, InetSocketAddress target) throws IOException {
    ServerSocket listener = new ServerSocket();
    try {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      listener.close();
      throw new IOException("port " + port + " is taken: choose another with -Dtriple.fuzz.seedPort=N", e);
    }
    return new RecordingRelay(listener, target);
  }

  int port() {
    return listener.getLocalPort();
  }

  /** The next connection to have ended both ways, waiting up to {@code seconds} for it. */
  Connection next(long seconds) throws InterruptedException {
    Connection connection = ended.poll(seconds, TimeUnit.SECONDS);
    if (connection == null) {
      throw new AssertionError("no connection through the relay ended within " + seconds + " s");
    }
    return connection;
  }

  /** Whether a connection ended that no one has taken with {@link #next}. */
  boolean hasEnded() {
    return !ended.isEmpty();
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return;
      }
      Thread relay = new Thread(() -> relay(client), "recording-relay-" + client.getPort());
      relay.setDaemon(true);
      relay.start();
    }
  }

  private void relay(Socket client) {
    try (client; Socket server = new Socket()) {
      server.connect(target);
      client.setTcpNoDelay(true);
      server.setTcpNoDelay(true);
      ByteArrayOutputStream up = new ByteArrayOutputStream();
      ByteArrayOutputStream down = new ByteArrayOutputStream();
      Thread downstream = new Thread(() -> copy(server, client, down), Thread.currentThread().getName() + "-down");
      downstream.setDaemon(true);
      downstream.start();
      copy(client, server, up);
      downstream.join();
      ended.add(new Connection(up.toByteArray(), down.toByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Copies {@code from} to {@code to} until {@code from} ends, keeping a copy; then half-closes {@code to}. */
  private static void copy(Socket from, Socket to, ByteArrayOutputStream copy) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        copy.write(buffer, 0, n);
        out.write(buffer, 0, n);
      }
    } catch (SocketException reset) {
      // A reset ends the direction as an end of stream does; what came before it is kept.
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException alreadyClosed) {
        // The other side is gone already: nothing left to tell it.
      }
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
