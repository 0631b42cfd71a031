package io.triplerpc.registry.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPatternTest {

  @ParameterizedTest
  @CsvSource({
      "10.0.0.5,           10.0.0.5,  1,     true",
      "10.0.0.5,           10.0.0.50, 1,     false",
      "10.0.0.5:20880,     10.0.0.5,  20880, true",
      "10.0.0.5:20880,     10.0.0.5,  20881, false",
      "10.0.0.5:*,         10.0.0.5,  9,     true",
      "10.0.*.5,           10.0.77.5, 9,     true",
      "10.0.*.5,           10.1.77.5, 9,     false",
      "10.0.0.1-9,         10.0.0.9,  9,     true",
      "10.0.0.1-9,         10.0.0.10, 9,     false",
      "10.0.0.0/8,         10.200.3.4, 9,    true",
      "10.0.0.0/8,         11.0.0.1,  9,     false",
      "0.0.0.0,            1.2.3.4,   9,     true",
      "0.0.0.0:20880,      1.2.3.4,   20880, true",
      "0.0.0.0:20880,      1.2.3.4,   20881, false",
      "*,                  anything,  1,     true",
      "Provider-1.example, provider-1.EXAMPLE, 1, true",
      "[fe80::1]:50051,    FE80::1,   50051, true",
      "10.0.0.5,           not.an.ip.host, 1, false",
      "10.0.0.5,           10.0.0.5.6, 1,    false",
  })
  void matches(String pattern, String host, int port, boolean expected) throws RuleException {
    assertEquals(expected, AddressPattern.parse(pattern).matches(host, port));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "10.0.0", "10.0.0.256", "10.0.0.9-1", "10.0.0.1:", "10.0.0.1:65536",
      "10.0.0.0/33", "10.0.*.0/8", "fe80::1", "[fe80::1", "[zz]", "a b", "-host", "10.0.0.1:1:2"})
  void refuses(String pattern) {
    assertThrows(RuleException.class, () -> AddressPattern.parse(pattern));
  }
}
