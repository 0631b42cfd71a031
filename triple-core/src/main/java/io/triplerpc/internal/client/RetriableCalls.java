package io.triplerpc.internal.client;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.internal.SerializingExecutor;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.spi.Picker;
import io.triplerpc.spi.Picker.Pick;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The end of a client's chain of call factories: every call a {@link RetriableCall}, its attempts on
 * the servers its {@link Picker} chooses, under the method config that names it (or none). What the
 * calls share lives here: the throttle, the retry buffer's client-wide budget, the scheduler and clock.
 */
final class RetriableCalls implements ClientCallFactory {

  /** The picker of each call. */
  @FunctionalInterface
  interface Pickers {
    Picker picker(MethodDescriptor<?, ?> method, CallOptions options);
  }

  /** Makes the attempt of a call on a picked server. */
  @FunctionalInterface
  interface Attempts {
    <Q, R> AttemptCall<Q, R> newAttempt(Pick pick, MethodDescriptor<Q, R> method, CallOptions options,
        Executor callExecutor);
  }

  private final Pickers pickers;
  private final Attempts attempts;
  /** Method configs by full method name and by service name; "" for every method. */
  private final Map<String, MethodConfig> configs;
  /** Null when retries are not throttled. */
  private final Throttle throttle;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier nanoTime;
  /** Uniform in [0, 1): the jitter of each backoff. */
  private final DoubleSupplier jitter;
  private final long perCallBufferBytes;
  private final ReplayBudget budget;
  /** Where callbacks run when a call brings no executor of its own. */
  private final Executor callbackExecutor;

  RetriableCalls(Pickers pickers, Attempts attempts, MethodSettings settings, ScheduledExecutorService scheduler,
      LongSupplier nanoTime, DoubleSupplier jitter, Executor callbackExecutor) {
    this.pickers = pickers;
    this.attempts = attempts;
    this.configs = settings.configs();
    this.throttle = settings.throttle();
    this.scheduler = scheduler;
    this.nanoTime = nanoTime;
    this.jitter = jitter;
    this.perCallBufferBytes = settings.perCallBufferBytes();
    this.budget = new ReplayBudget(settings.perClientBufferBytes());
    this.callbackExecutor = callbackExecutor;
  }

  /** Calls with no method config on the attempts {@code attempts} makes, with a random jitter. */
  RetriableCalls(Pickers pickers, Attempts attempts, MethodSettings settings, ScheduledExecutorService scheduler,
      LongSupplier nanoTime, Executor callbackExecutor) {
    this(pickers, attempts, settings, scheduler, nanoTime, () -> ThreadLocalRandom.current().nextDouble(),
        callbackExecutor);
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    MethodConfig config = configs.isEmpty() ? null : MethodConfig.find(configs, method);
    Executor callExecutor = options.executor() != null ? options.executor() : new SerializingExecutor(callbackExecutor);
    return new RetriableCall<>(this, method, options, pickers.picker(method, options), config, callExecutor);
  }

  <Q, R> AttemptCall<Q, R> newAttempt(Pick pick, MethodDescriptor<Q, R> method, CallOptions options,
      Executor callExecutor) {
    return attempts.newAttempt(pick, method, options, callExecutor);
  }

  Throttle throttle() {
    return throttle;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  long nanoTime() {
    return nanoTime.getAsLong();
  }

  double jitter() {
    return jitter.getAsDouble();
  }

  long perCallBufferBytes() {
    return perCallBufferBytes;
  }

  ReplayBudget budget() {
    return budget;
  }

  /**
   * The bytes {@code message} takes, for a message sent while no attempt runs to tell (the call waits
   * to go again): the codec's count if it keeps one, else what it writes.
   */
  <Q> long sizeOf(MethodDescriptor<Q, ?> method, Q message) {
    MessageCodec<Q> codec = method.requestCodec();
    int known = codec.serializedSize(message);
    if (known >= 0) {
      return known;
    }
    Counting counting = new Counting();
    try {
      codec.write(message, counting);
    } catch (IOException | RuntimeException e) {
      return perCallBufferBytes + 1;
    }
    return counting.count;
  }

  /** Counts what a codec writes. */
  private static final class Counting extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
