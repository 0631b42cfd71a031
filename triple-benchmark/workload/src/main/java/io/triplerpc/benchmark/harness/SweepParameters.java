package io.triplerpc.benchmark.harness;

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

  private final AtomicInteger nextClient = new AtomicInteger();

  /** The client for the JMH thread asking: the i-th to ask gets client i modulo the connections. */
  protected <T> T nextOf(T[] clients) {
    return clients[nextClient.getAndIncrement() % clients.length];
  }
}
