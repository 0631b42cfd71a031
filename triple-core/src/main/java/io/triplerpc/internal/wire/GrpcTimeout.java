package io.triplerpc.internal.wire;

import java.util.concurrent.TimeUnit;

/**
 * The {@code grpc-timeout} header: at most 8 ASCII digits followed by a unit, one of
 * {@code H M S m u n}.
 */
public final class GrpcTimeout {

  private static final long MAX_VALUE = 99_999_999L;

  private GrpcTimeout() {}

  /** Encodes a positive timeout with the finest unit whose value fits in 8 digits. */
  public static String encode(long nanos) {
    if (nanos <= 0) {
      return "1n";
    }
    if (nanos <= MAX_VALUE) {
      return nanos + "n";
    }
    if (nanos <= MAX_VALUE * 1_000L) {
      return TimeUnit.NANOSECONDS.toMicros(nanos) + "u";
    }
    if (nanos <= MAX_VALUE * 1_000_000L) {
      return TimeUnit.NANOSECONDS.toMillis(nanos) + "m";
    }
    if (nanos <= MAX_VALUE * 1_000_000_000L) {
      return TimeUnit.NANOSECONDS.toSeconds(nanos) + "S";
    }
    long minutes = TimeUnit.NANOSECONDS.toMinutes(nanos);
    if (minutes <= MAX_VALUE) {
      return minutes + "M";
    }
    return Math.min(TimeUnit.NANOSECONDS.toHours(nanos), MAX_VALUE) + "H";
  }

  /**
   * A request's deadline from its {@code grpc-timeout} header: 0 without one, else at least 1 ns.
   *
   * @throws IllegalArgumentException naming what is wrong with the value
   */
  public static long requestTimeoutNanos(CharSequence header) {
    return header == null ? 0 : Math.max(1, decode(header));
  }

  /**
   * Decodes a header value into nanoseconds (saturating at {@link Long#MAX_VALUE}).
   *
   * @throws IllegalArgumentException naming what is wrong with the value
   */
  public static long decode(CharSequence value) {
    int length = value.length();
    if (length < 2 || length > 9) {
      throw new IllegalArgumentException("grpc-timeout must be 1 to 8 digits and a unit: '" + value + "'");
    }
    long amount = 0;
    for (int i = 0; i < length - 1; i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException("grpc-timeout has a non-digit: '" + value + "'");
      }
      amount = amount * 10 + (c - '0');
    }
    TimeUnit unit;
    switch (value.charAt(length - 1)) {
      case 'n':
        return amount;
      case 'u':
        unit = TimeUnit.MICROSECONDS;
        break;
      case 'm':
        unit = TimeUnit.MILLISECONDS;
        break;
      case 'S':
        unit = TimeUnit.SECONDS;
        break;
      case 'M':
        unit = TimeUnit.MINUTES;
        break;
      case 'H':
        unit = TimeUnit.HOURS;
        break;
      default:
        throw new IllegalArgumentException("grpc-timeout has an unknown unit: '" + value + "'");
    }
    return unit.toNanos(amount);
  }
}
