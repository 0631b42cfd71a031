package io.triplerpc.benchmark.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What the sweeps of scripts/bench.sh vary besides JMH's threads, for each contender's
 * {@code SweepBenchmark}, which extends this: the echo's payload and the connections (clients) that
 * the threads are spread over. JMH takes parameters of a superclass only from a {@code @State} one.
 */
@State(Scope.Benchmark)
public abstract class SweepParameters {

  /** Bytes of the payload, carried by the request and again by the response. */
  @Param("10")
  public int payload;

  /** Clients, each with a connection of its own to the one server. */
  @Param("1")
  public int connections;

  /**
   * Milliseconds a relay between the clients and the server adds each way ({@link DelayedLink}); 0
   * (the sweeps') for none.
   */
  @Param("0")
  public int linkDelayMillis;

  private DelayedLink link;

  private final AtomicInteger nextClient = new AtomicInteger();

  /**
   * The port clients connect to for a server listening on {@code serverPort}: a {@link DelayedLink}'s
   * when {@link #linkDelayMillis} asks for one, else the server's.
   */
  protected int clientPort(int serverPort) throws IOException {
    if (linkDelayMillis == 0) {
      return serverPort;
    }
    link = DelayedLink.start(serverPort, Duration.ofMillis(linkDelayMillis));
    return link.port();
  }

  /** Closes the link {@link #clientPort} started, if any. */
  protected void closeLink() throws IOException {
    if (link != null) {
      link.close();
      link = null;
    }
  }

  /** The client for the JMH thread asking: the i-th to ask gets client i modulo the connections. */
  protected <T> T nextOf(T[] clients) {
    return clients[nextClient.getAndIncrement() % clients.length];
  }
}
