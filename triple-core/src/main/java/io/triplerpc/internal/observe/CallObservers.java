package io.triplerpc.internal.observe;

import io.triplerpc.CallObserver;
import io.triplerpc.ObservedCall;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link CallObserver}s of a client or server, each shielded from the others' failures. Immutable. */
public final class CallObservers {

  private static final Logger log = LoggerFactory.getLogger(CallObservers.class);

  private final CallObserver[] observers;

  private CallObservers(List<CallObserver> observers) {
    this.observers = observers.toArray(new CallObserver[0]);
  }

  /** The observers in {@code list}, or null when there are none: call sites then do nothing at all. */
  public static CallObservers of(List<CallObserver> list) {
    return list.isEmpty() ? null : new CallObservers(List.copyOf(list));
  }

  void started(ObservedCall call) {
    for (CallObserver observer : observers) {
      try {
        observer.started(call);
      } catch (RuntimeException e) {
        log.warn("Call observer {} failed on the start of {}", observer, call.method(), e);
      }
    }
  }

  void ended(ObservedCall call) {
    for (CallObserver observer : observers) {
      try {
        observer.ended(call);
      } catch (RuntimeException e) {
        log.warn("Call observer {} failed on the end of {}", observer, call.method(), e);
      }
    }
  }
}
