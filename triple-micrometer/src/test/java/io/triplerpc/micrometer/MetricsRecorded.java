package io.triplerpc.micrometer;

import io.triplerpc.CallObserver;
import io.triplerpc.ObservedCall;
import io.triplerpc.testing.Signal;
import java.util.function.BooleanSupplier;

/**
 * Added to a client or server after its metrics observer: observers are told in the order they were
 * added, so once this one hears of a call's start or end, the metrics have recorded it. Tests await
 * meters on it rather than reading them again and again.
 */
final class MetricsRecorded implements CallObserver {

  private final Signal signal = new Signal();

  @Override
  public void started(ObservedCall call) {
    signal.fire();
  }

  @Override
  public void ended(ObservedCall call) {
    signal.fire();
  }

  /** Something else the meters read changed (a connection opened or closed, say). */
  void fire() {
    signal.fire();
  }

  /** Returns once {@code condition} holds: now, or after one of the calls or changes to come. */
  void await(BooleanSupplier condition, String what) {
    signal.await(condition, what);
  }
}
