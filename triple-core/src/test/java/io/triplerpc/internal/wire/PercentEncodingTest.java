package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class PercentEncodingTest {

  @Test
  void plainAsciiIsLeftAsItIs() {
    String message = "Deadline exceeded after 5 s (retry later)";
    assertSame(message, PercentEncoding.encode(message));
  }

  @Test
  void percentControlAndUnicodeAreEscapedAsUtf8() {
    assertEquals("100%25", PercentEncoding.encode("100%"));
    assertEquals("%09a%0A", PercentEncoding.encode("\ta\n"));
    assertEquals("caf%C3%A9 %E2%98%BA %F0%9F%98%88", PercentEncoding.encode("café ☺ 😈"));
  }

  @Test
  void decodingInvertsEncoding() {
    String message = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n 100%";
    assertEquals(message, PercentEncoding.decode(PercentEncoding.encode(message)));
  }

  @Test
  void malformedEscapesAreKept() {
    assertEquals("50%", PercentEncoding.decode("50%"));
    assertEquals("%zz ok", PercentEncoding.decode("%zz ok"));
    assertEquals("a%4", PercentEncoding.decode("a%4"));
  }
}
