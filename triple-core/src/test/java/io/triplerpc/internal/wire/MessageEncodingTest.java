package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.AsciiString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class MessageEncodingTest {

  @Test
  void identityAndNoHeaderMeanNoEncoding() {
    assertNull(MessageEncoding.forName(null));
    assertNull(MessageEncoding.forName(""));
    assertNull(MessageEncoding.forName("identity"));
  }

  @Test
  void gzipIsFoundByItsWireName() {
    assertSame(MessageEncoding.GZIP, MessageEncoding.forName("gzip"));
    assertSame(MessageEncoding.GZIP, MessageEncoding.forName(AsciiString.of("gzip")));
    assertEquals("gzip", MessageEncoding.GZIP.wireName());
  }

  @Test
  void unsupportedEncodingsAreRejectedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MessageEncoding.forName("snappy"));
    assertTrue(e.getMessage().contains("snappy"), e.getMessage());
  }

  @Test
  void acceptEncodingListsAreSplitOnCommasAndTrimmed() {
    assertTrue(MessageEncoding.accepts("gzip", MessageEncoding.GZIP));
    assertTrue(MessageEncoding.accepts("identity,gzip", MessageEncoding.GZIP));
    assertTrue(MessageEncoding.accepts("deflate , gzip ", MessageEncoding.GZIP));
    assertFalse(MessageEncoding.accepts("identity, deflate", MessageEncoding.GZIP));
    assertFalse(MessageEncoding.accepts("gzipx", MessageEncoding.GZIP));
    assertFalse(MessageEncoding.accepts("", MessageEncoding.GZIP));
    assertFalse(MessageEncoding.accepts(null, MessageEncoding.GZIP));
    assertTrue(MessageEncoding.accepts(MessageEncoding.ACCEPT_ENCODING, MessageEncoding.GZIP));
  }

  @Test
  void gzipStreamsRoundTripAndAreStandardGzip() throws Exception {
    byte[] data = "compress me, ".repeat(200).getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (OutputStream out = MessageEncoding.GZIP.compress(compressed)) {
      out.write(data);
    }
    assertTrue(compressed.size() < data.length / 10, "repetitive text compresses: " + compressed.size());
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed.toByteArray()))) {
      assertArrayEquals(data, in.readAllBytes());
    }
    try (InputStream in = MessageEncoding.GZIP.decompress(new ByteArrayInputStream(compressed.toByteArray()))) {
      assertArrayEquals(data, in.readAllBytes());
    }
  }
}
