package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GrpcTimeoutTest {

  @Test
  void everyUnitDecodes() {
    assertEquals(5, GrpcTimeout.decode("5n"));
    assertEquals(TimeUnit.MICROSECONDS.toNanos(7), GrpcTimeout.decode("7u"));
    assertEquals(TimeUnit.MILLISECONDS.toNanos(200), GrpcTimeout.decode("200m"));
    assertEquals(TimeUnit.SECONDS.toNanos(3), GrpcTimeout.decode("3S"));
    assertEquals(TimeUnit.MINUTES.toNanos(2), GrpcTimeout.decode("2M"));
    assertEquals(TimeUnit.HOURS.toNanos(1), GrpcTimeout.decode("1H"));
    assertEquals(TimeUnit.HOURS.toNanos(99_999_999), GrpcTimeout.decode("99999999H"));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 999, 99_999_999, 100_000_000, 1_500_000_000L, 86_400_000_000_000L, Long.MAX_VALUE})
  void encodingUsesAtMostEightDigitsAndKeepsTheValueWithinItsUnit(long nanos) {
    String encoded = GrpcTimeout.encode(nanos);
    assertTrue(encoded.length() <= 9, encoded);
    long decoded = GrpcTimeout.decode(encoded);
    assertTrue(decoded <= nanos, encoded);
    // The finest unit that fits loses less than one part in 10^7.
    assertTrue(nanos - decoded <= Math.max(1, nanos / 10_000_000L) || encoded.endsWith("H"), encoded);
  }

  @Test
  void nonPositiveTimeoutsEncodeAsTheSmallest() {
    assertEquals("1n", GrpcTimeout.encode(0));
    assertEquals("1n", GrpcTimeout.encode(-5));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "m", "123456789S", "12x", "1.5S", "-1S", "abc", " 1S"})
  void malformedValuesAreRejectedWithAReason(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GrpcTimeout.decode(value));
    assertTrue(e.getMessage().contains("grpc-timeout"), e.getMessage());
  }
}
