package io.triplerpc.benchmark.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on 127.0.0.1 that holds every byte for a fixed time each way before passing it on, as
 * a long link does; its bandwidth is the loopback's, its buffer unbounded, so what limits a connection
 * through it is what the protocol keeps in flight per round trip (HTTP/2's flow-control windows).
 * Blocking sockets, two threads per direction of each connection: plain JDK rather than
 * triple-testing's {@code FaultProxy}, since this harness is in every contender's jar and FaultProxy
 * would bring Netty 4.2 and JUnit next to grpc-java's and Dubbo's own Netty.
 */
public final class DelayedLink implements AutoCloseable {

  /** Bytes read at one time and passed on, due {@code dueNanos}; null bytes for the end of the stream. */
  private record Chunk(byte[] bytes, long dueNanos) {}

  private final ServerSocket listener;
  private final int targetPort;
  private final long delayNanos;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  private DelayedLink(int targetPort, Duration oneWay) throws IOException {
    this.targetPort = targetPort;
    this.delayNanos = oneWay.toNanos();
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    daemon("delayed-link-accept", this::acceptLoop);
  }

  /** A relay to {@code 127.0.0.1:targetPort} that delays each way by {@code oneWay}. */
  public static DelayedLink start(int targetPort, Duration oneWay) throws IOException {
    return new DelayedLink(targetPort, oneWay);
  }

  /** The port clients connect to. */
  public int port() {
    return listener.getLocalPort();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket();
        server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        for (Socket socket : List.of(client, server)) {
          socket.setTcpNoDelay(true);
          sockets.add(socket);
        }
        relay(client, server);
        relay(server, client);
      } catch (IOException e) {
        if (!closed) {
          throw new IllegalStateException("The delayed link could not relay a connection", e);
        }
      }
    }
  }

  private void relay(Socket from, Socket to) throws IOException {
    BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    daemon("delayed-link-read", () -> {
      byte[] buffer = new byte[64 * 1024];
      try {
        int read;
        while ((read = in.read(buffer)) >= 0) {
          queue.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime() + delayNanos));
        }
      } catch (IOException e) {
        // The socket closed: pass the end on, after the bytes before it.
      }
      queue.add(new Chunk(null, System.nanoTime() + delayNanos));
    });
    daemon("delayed-link-write", () -> {
      try {
        while (true) {
          Chunk chunk = queue.take();
          for (long wait; (wait = chunk.dueNanos() - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(wait);
          }
          if (chunk.bytes() == null) {
            to.shutdownOutput();
            return;
          }
          out.write(chunk.bytes());
        }
      } catch (IOException | InterruptedException e) {
        // The other side closed, or the link did: nothing left to pass on.
      }
    });
  }

  private static void daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
