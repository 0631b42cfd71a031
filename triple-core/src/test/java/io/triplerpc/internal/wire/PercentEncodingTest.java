package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PercentEncodingTest {

  @Test
  void printableAsciiOtherThanPercentIsLeftAsItIs() {
    StringBuilder printable = new StringBuilder();
    for (char c = ' '; c <= '~'; c++) {
      if (c != '%') {
        printable.append(c);
      }
    }
    String message = printable.toString();
    assertSame(message, PercentEncoding.encode(message));
    assertEquals(message, PercentEncoding.decode(message));
  }

  @Test
  void percentIsEscaped() {
    assertEquals("100%25", PercentEncoding.encode("100%"));
    assertEquals("%25%25", PercentEncoding.encode("%%"));
  }

  @Test
  void controlCharactersAreEscapedInUpperCaseHex() {
    assertEquals("%00%09a%0A%0D%1F", PercentEncoding.encode("\0\ta\n\r\u001f"));
    assertEquals("%7F", PercentEncoding.encode("\u007f"));
  }

  @Test
  void unicodeIsEscapedAsItsUtf8Bytes() {
    assertEquals("caf%C3%A9", PercentEncoding.encode("café"));
    assertEquals("%E2%98%BA", PercentEncoding.encode("☺"));
    assertEquals("%F0%9F%98%88", PercentEncoding.encode("😈"));
    assertEquals("%E4%BD%A0%E5%A5%BD 100%25", PercentEncoding.encode("你好 100%"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "plain", "100%", "%25", "%%%", "\t\ntest with whitespace\r\n", "Unicode BMP ☺ and non-BMP 😈",
      "你好, мир, ¡hola!", "trailing %", "%zz is not an escape", "\u0000\u007f\u0080\u00ff"})
  void decodingInvertsEncoding(String message) {
    assertEquals(message, PercentEncoding.decode(PercentEncoding.encode(message)));
  }

  @Test
  void lowerCaseHexDecodes() {
    assertEquals("café", PercentEncoding.decode("caf%c3%a9"));
    assertEquals("café", PercentEncoding.decode("caf%C3%a9"));
  }

  @Test
  void anyCharSequenceDecodes() {
    assertEquals("a b%", PercentEncoding.decode(AsciiString.of("a%20b%25")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "%|%",
      "50%|50%",
      "a%4|a%4",
      "%zz ok|%zz ok",
      "%G1|%G1",
      "%1G|%1G",
      "%%41|%A",
      "%2|%2",
      "100%%|100%%",
  })
  void malformedEscapesAreKeptAsTheyAre(String encoded, String decoded) {
    assertEquals(decoded, PercentEncoding.decode(encoded));
  }

  @Test
  void onlyAsciiHexDigitsFormAnEscape() {
    // Character.digit also accepts Arabic-Indic and full-width digits; the gRPC spec's escapes are ASCII.
    assertEquals("%\u0661\u0662", PercentEncoding.decode("%\u0661\u0662"));
    assertEquals("%\uFF21\uFF21", PercentEncoding.decode("%\uFF21\uFF21"));
  }

  @Test
  void escapesThatAreNotUtf8DecodeToReplacementCharactersInsteadOfFailing() {
    assertEquals("a\uFFFDb", PercentEncoding.decode("a%FFb"));
    String truncated = PercentEncoding.decode("%E2%98");
    assertTrue(!truncated.isEmpty() && truncated.chars().allMatch(c -> c == '\uFFFD'), truncated);
  }
}
