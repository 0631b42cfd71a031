package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.internal.client.ClientTransports;
import io.triplerpc.testing.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The changes of a client's connections ({@code ClientTransport.onConnectionsChanged}: one came up,
 * went away, or a failed attempt's backoff ended), counted, for a test to await instead of calling
 * again and again until the client has noticed.
 */
final class ConnectionChanges {

  private final Signal signal = new Signal();
  private final AtomicLong count = new AtomicLong();

  private ConnectionChanges() {}

  /** Listens to the changes of {@code client}'s connections from now on; a client of one address. */
  static ConnectionChanges of(TripleClient client) {
    ConnectionChanges changes = new ConnectionChanges();
    ClientTransports.of(client).onConnectionsChanged(() -> {
      changes.count.incrementAndGet();
      changes.signal.fire();
    });
    return changes;
  }

  /**
   * Makes {@code call} until it returns true, at most {@code maxFailures} + 1 times: each time it fails
   * UNAVAILABLE (the client has not noticed yet, or waits out a backoff), the next call waits for the
   * next change of the connections, which the failure's cause is followed by. Returns the failures.
   *
   * @throws AssertionError if a call fails otherwise, returns false, or fails more often than allowed
   */
  List<Status> callUntilItSucceeds(BooleanSupplier call, int maxFailures, String what) {
    List<Status> failures = new ArrayList<>();
    while (true) {
      long seen = count.get();
      try {
        if (!call.getAsBoolean()) {
          throw new AssertionError("A call answered wrongly while waiting until " + what);
        }
        return failures;
      } catch (StatusException e) {
        assertEquals(Status.Code.UNAVAILABLE, e.status().code(), e::toString);
        failures.add(e.status());
        if (failures.size() > maxFailures) {
          throw new AssertionError("More than " + maxFailures + " calls failed waiting until " + what + ": " + failures);
        }
        signal.await(() -> count.get() > seen, "the client's connections change, so that " + what);
      }
    }
  }
}
