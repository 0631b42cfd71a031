package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.AsciiString;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GrpcTimeoutTest {

  @ParameterizedTest
  @CsvSource({
      "0n, 0",
      "5n, 5",
      "99999999n, 99999999",
      "7u, 7000",
      "200m, 200000000",
      "3S, 3000000000",
      "2M, 120000000000",
      "1H, 3600000000000",
      "00000001S, 1000000000",
  })
  void everyUnitDecodesToNanoseconds(String value, long nanos) {
    assertEquals(nanos, GrpcTimeout.decode(value));
  }

  @Test
  void decodingSaturatesInsteadOfOverflowing() {
    assertEquals(Long.MAX_VALUE, GrpcTimeout.decode("99999999H"));
    assertEquals(TimeUnit.MINUTES.toNanos(99_999_999), GrpcTimeout.decode("99999999M"));
  }

  @Test
  void anyCharSequenceDecodes() {
    assertEquals(TimeUnit.SECONDS.toNanos(5), GrpcTimeout.decode(AsciiString.of("5S")));
    assertEquals(TimeUnit.SECONDS.toNanos(5), GrpcTimeout.decode(new StringBuilder("5S")));
  }

  @ParameterizedTest
  @CsvSource({
      "1, 1n",
      "99999999, 99999999n",
      "100000000, 100000u",
      "1000000000, 1000000u",
      "99999999000, 99999999u",
      "99999999001, 99999m",
      "3600000000000, 3600000m",
      "172800000000000, 172800S",
      "432000000000000000, 7200000M",
      "9223372036854775807, 2562047H",
  })
  void encodingPicksTheFinestUnitWhoseValueFitsInEightDigits(long nanos, String encoded) {
    assertEquals(encoded, GrpcTimeout.encode(nanos));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 999, 99_999_999, 100_000_000, 1_500_000_000L, 86_400_000_000_000L,
      5_999_999_940_000_000_000L, 6_000_000_000_000_000_000L, Long.MAX_VALUE})
  void anEncodedTimeoutDecodesToAtMostItselfLosingLessThanOneUnit(long nanos) {
    String encoded = GrpcTimeout.encode(nanos);
    assertTrue(encoded.length() <= 9, encoded);
    long decoded = GrpcTimeout.decode(encoded);
    assertTrue(decoded <= nanos, encoded + " decodes to more than " + nanos);
    long unit = GrpcTimeout.decode("1" + encoded.charAt(encoded.length() - 1));
    assertTrue(nanos - decoded < unit, encoded + " loses a whole unit of " + nanos);
  }

  @Test
  void nonPositiveTimeoutsEncodeAsTheSmallest() {
    assertEquals("1n", GrpcTimeout.encode(0));
    assertEquals("1n", GrpcTimeout.encode(-5));
    assertEquals("1n", GrpcTimeout.encode(Long.MIN_VALUE));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "S", "1", "12", "123456789S", "12x", "1s", "1h", "1.5S", "-1S", "+1S", " 1S", "1S ", "1 S",
      "0x1S", "\uFF11S", "\u0661S"})
  void malformedValuesAreRejectedNamingTheHeader(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GrpcTimeout.decode(value));
    assertTrue(e.getMessage().contains("grpc-timeout"), e.getMessage());
    assertTrue(e.getMessage().contains("'" + value + "'"), "the message quotes the value: " + e.getMessage());
  }
}
