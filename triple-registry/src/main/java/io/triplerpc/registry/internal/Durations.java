package io.triplerpc.registry.internal;

import java.time.Duration;
import java.util.Objects;

/** Checks of durations given to the registry's builders. */
public final class Durations {

  private Durations() {}

  /**
   * {@code value}, if above zero.
   *
   * @throws IllegalArgumentException if it is zero or negative
   */
  public static Duration positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
    return value;
  }

  /**
   * {@code value}, if not below zero.
   *
   * @throws IllegalArgumentException if it is negative
   */
  public static Duration notNegative(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
    return value;
  }
}
