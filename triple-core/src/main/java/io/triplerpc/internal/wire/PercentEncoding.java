package io.triplerpc.internal.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The percent-encoding of {@code grpc-message}: UTF-8 bytes outside printable ASCII, and '%', become
 * {@code %XX}. Decoding is lenient: a malformed escape is kept as it is.
 */
public final class PercentEncoding {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentEncoding() {}

  public static String encode(String message) {
    int i = 0;
    while (i < message.length() && isUnreserved(message.charAt(i))) {
      i++;
    }
    if (i == message.length()) {
      return message;
    }
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(bytes.length + 16);
    for (byte b : bytes) {
      int c = b & 0xff;
      if (isUnreserved((char) c)) {
        sb.append((char) c);
      } else {
        sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return sb.toString();
  }

  public static String decode(CharSequence value) {
    boolean plain = true;
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) == '%') {
        plain = false;
        break;
      }
    }
    if (plain) {
      return value.toString();
    }
    // Escapes are gathered as UTF-8 bytes; any other character passes through as it is.
    StringBuilder decoded = new StringBuilder(value.length());
    ByteArrayOutputStream escaped = new ByteArrayOutputStream();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '%' && i + 2 < value.length()) {
        int hi = hexValue(value.charAt(i + 1));
        int lo = hexValue(value.charAt(i + 2));
        if (hi >= 0 && lo >= 0) {
          escaped.write((hi << 4) | lo);
          i += 2;
          continue;
        }
      }
      flush(escaped, decoded);
      decoded.append(c);
    }
    flush(escaped, decoded);
    return decoded.toString();
  }

  private static void flush(ByteArrayOutputStream escaped, StringBuilder decoded) {
    if (escaped.size() > 0) {
      decoded.append(new String(escaped.toByteArray(), StandardCharsets.UTF_8));
      escaped.reset();
    }
  }

  /** The value of an ASCII hex digit, or -1 (Character.digit also accepts non-ASCII digits). */
  private static int hexValue(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }

  private static boolean isUnreserved(char c) {
    return c >= ' ' && c <= '~' && c != '%';
  }
}
