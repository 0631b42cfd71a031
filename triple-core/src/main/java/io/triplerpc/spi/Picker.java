package io.triplerpc.spi;

import io.triplerpc.CallOptions;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import java.util.List;

/**
 * Where the attempts of one call go. The client's one attempt loop asks for a server before every
 * attempt (the first, each retry, each hedge, each failover) and tells each {@link Pick} when its
 * attempt ended; the loop alone decides whether there is another attempt, so a retry policy's
 * {@code maxAttempts} counts every attempt whatever picked its server.
 *
 * <p>Thread-safe; no method blocks. A call made before the picker {@link #isReady() is ready} waits
 * for it without holding the caller's thread, at most {@link #readyWaitNanos()} and never past its deadline.
 */
public interface Picker {

  /** Whether the servers are known (the first list arrived, or is known not to come). */
  default boolean isReady() {
    return true;
  }

  /** Runs {@code task} once this picker is ready: now, on this thread, if it is. */
  default void whenReady(Runnable task) {
    task.run();
  }

  /** How long a call waits for this picker to be ready, at most. */
  default long readyWaitNanos() {
    return 0;
  }

  /**
   * The server of the next attempt of a call of {@code method}: one not in {@code tried} (this call's
   * earlier picks, oldest first) if one is in rotation, else one tried before; null if none is.
   */
  Pick pick(MethodDescriptor<?, ?> method, List<Pick> tried);

  /**
   * As {@link #pick(MethodDescriptor, List)}, for a call with {@code options} and request {@code headers}:
   * for pickers that choose by them (a consistent hash of a header or of {@link CallOptions#hashKey()}).
   * The client's attempt loop calls this one.
   */
  default Pick pick(MethodDescriptor<?, ?> method, CallOptions options, Metadata headers, List<Pick> tried) {
    return pick(method, tried);
  }

  /** Whether {@code pick} chose a server that is also in {@code tried}. */
  default boolean wasTried(Pick pick, List<Pick> tried) {
    for (Pick earlier : tried) {
      if (earlier.sameServer(pick)) {
        return true;
      }
    }
    return false;
  }

  /** Why {@link #pick} found no server, as the caller's UNAVAILABLE says it. */
  String noServerReason();

  /** The servers in messages, such as {@code helloworld.Greeter (version 1, no group)}. */
  String describe();

  /**
   * Further attempts on other servers that a call without a retry or hedging policy makes after an
   * attempt failed with UNAVAILABLE before any response, when its method is idempotent and sends one
   * request (failover); 0 for none.
   */
  default int failoverRetries() {
    return 0;
  }

  /** One attempt's server, as a {@link Picker} chose it. */
  interface Pick {

    /** The connection the attempt goes on. */
    Connection connection();

    /**
     * The options of the attempt on this server: the call's {@code options}, or a copy that names
     * what this server's export needs (its version and group, the serializations it reads).
     */
    default CallOptions options(CallOptions options) {
      return options;
    }

    /** Whether this pick and {@code other} chose the same server. */
    default boolean sameServer(Pick other) {
      return connection() == other.connection();
    }

    /** The attempt ended with {@code status} (or never started): called once per pick. */
    default void attemptEnded(Status status) {}
  }
}
