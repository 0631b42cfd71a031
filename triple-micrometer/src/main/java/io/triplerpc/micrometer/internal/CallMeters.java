package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.triplerpc.ObservedCall;
import io.triplerpc.Status;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The meters of one method (on one target, or in one protocol): its started counter, and its duration and
 * sizes by status, each registered the first time it is needed and then reused, so that recording a
 * call costs two array reads and no tags. Thread-safe: racing registrations get the same meter back
 * from the registry.
 */
final class CallMeters {

  private static final int CODES = Status.Code.values().length;

  private final MeterRegistry registry;
  private final Tags tags;
  /** What one recording is: a "call" or an "attempt". */
  private final String per;
  private final String durationName;
  private final String sentName;
  private final String receivedName;
  private final Counter started;
  /** Duration by status code, or null until a call ended with that code. */
  private final AtomicReferenceArray<Timer> durations = new AtomicReferenceArray<>(CODES);
  /** Bytes sent by status code, as {@link #durations}; unused when there is no {@link #sentName}. */
  private final AtomicReferenceArray<DistributionSummary> sent = new AtomicReferenceArray<>(CODES);
  private final AtomicReferenceArray<DistributionSummary> received = new AtomicReferenceArray<>(CODES);

  /**
   * @param per what is recorded, "call" or "attempt", for the descriptions
   * @param startedName the started counter's name, or null for none
   * @param sentName the bytes-sent summary's name, or null for none (then no received one either)
   */
  CallMeters(MeterRegistry registry, Tags tags, String per, String startedName, String startedDescription,
      String durationName, String sentName, String receivedName) {
    this.registry = registry;
    this.tags = tags;
    this.per = per;
    this.durationName = durationName;
    this.sentName = sentName;
    this.receivedName = receivedName;
    this.started = startedName == null ? null
        : Counter.builder(startedName).description(startedDescription).tags(tags).register(registry);
  }

  void started() {
    started.increment();
  }

  /** Records an ended {@code call}: its duration and, where this has them, its sizes. */
  void ended(ObservedCall call) {
    Status.Code code = call.status().code();
    int i = code.ordinal();
    Timer duration = durations.get(i);
    if (duration == null) {
      duration = register(code);
    }
    // The duration last: whoever sees a call counted in it sees its sizes too.
    if (sentName != null) {
      sent.get(i).record(call.messageBytesSent());
      received.get(i).record(call.messageBytesReceived());
    }
    duration.record(call.durationNanos(), TimeUnit.NANOSECONDS);
  }

  /** Registers the meters of {@code code}: the sizes first, so that a duration seen means sizes are there. */
  private Timer register(Status.Code code) {
    Tags withStatus = tags.and(MeterNames.STATUS, code.name());
    int i = code.ordinal();
    if (sentName != null) {
      sent.set(i, size(sentName, "Bytes of the messages sent (compressed, without framing) per " + per, withStatus));
      received.set(i, size(receivedName, "Bytes of the messages received (compressed, without framing) per " + per,
          withStatus));
    }
    Timer timer = Timer.builder(durationName)
        .description("Time each " + per + " took, from its start to its status")
        .tags(withStatus)
        .serviceLevelObjectives(MeterNames.LATENCY_BUCKETS)
        .register(registry);
    durations.set(i, timer);
    return timer;
  }

  private DistributionSummary size(String name, String description, Tags tags) {
    return DistributionSummary.builder(name)
        .description(description)
        .baseUnit(BaseUnits.BYTES)
        .tags(tags)
        .serviceLevelObjectives(MeterNames.SIZE_BUCKETS)
        .register(registry);
  }
}
