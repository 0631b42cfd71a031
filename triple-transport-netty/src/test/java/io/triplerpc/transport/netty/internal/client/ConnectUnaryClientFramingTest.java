package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.client.GrpcClientFramingTest.head;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.internal.wire.MessageEncoding;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Connect unary's framing alone: an unframed body each way, errors as HTTP status and JSON. */
class ConnectUnaryClientFramingTest {

  private final RecordingCallEvents call = new RecordingCallEvents();

  private static ByteBuf text(String text) {
    return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
  }

  private static ByteBuf framed(boolean compressed, String message) {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    return Unpooled.buffer().writeByte(compressed ? 1 : 0).writeInt(bytes.length).writeBytes(bytes);
  }

  @Test
  void requestHeadersNameConnectUnaryAndItsContentEncoding() {
    Http2Headers headers = new DefaultHttp2Headers();
    new ConnectUnaryClientFraming(100, MessageEncoding.GZIP, "proto", false).addRequestHeaders(headers, 0, MessageEncoding.GZIP);
    assertEquals("application/proto", headers.get("content-type").toString());
    assertEquals("gzip", headers.get("content-encoding").toString());
    assertEquals("gzip", headers.get("accept-encoding").toString());
    assertNull(headers.get("connect-timeout-ms"));
  }

  @Test
  void theRequestBodyIsTheMessageWithoutItsPrefix() {
    ByteBuf body = new ConnectUnaryClientFraming(100, null, "proto", false).requestBody(framed(false, "hello"), new DefaultHttp2Headers());
    assertEquals("hello", body.toString(StandardCharsets.UTF_8));
    body.release();
  }

  @Test
  void anUncompressedMessageIsCompressedAsTheContentEncodingSays() throws IOException {
    ByteBuf body = new ConnectUnaryClientFraming(100, MessageEncoding.GZIP, "proto", false).requestBody(framed(false, "hello"), new DefaultHttp2Headers());
    try (InputStream in = MessageEncoding.GZIP.decompress(new ByteBufInputStream(body, true))) {
      assertEquals("hello", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aResponseInTwoFramesIsOneMessageWithTheTrailersFromItsHead() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("200", "application/proto").add("x-h", "1").add("trailer-x-t", "2"), true, false, call);
    framing.dataRead(text("hel"), false, call);
    framing.dataRead(text("lo"), true, call);
    assertEquals(List.of("headers identity", "consumed 3", "consumed 2", "message hello", "end OK"), call.events);
    assertEquals("1", call.headers.get("x-h"));
    assertNull(call.headers.get("trailer-x-t"));
    assertEquals("2", call.trailers.get("x-t"));
  }

  @Test
  void anErrorIsReadFromItsJsonBody() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("404", "application/json").add("x-h", "1"), true, false, call);
    framing.dataRead(text("{\"code\":\"not_found\",\"message\":\"no such user\"}"), true, call);
    assertEquals(List.of("consumed 45", "end NOT_FOUND"), call.events);
    assertEquals("no such user", call.status.description());
    assertEquals("1", call.trailers.get("x-h"), "an error carries the response's headers");
  }

  @Test
  void anErrorWithoutJsonIsItsHttpStatus() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("503", "text/plain"), true, false, call);
    framing.dataRead(text("<html>busy</html>"), true, call);
    assertEquals("end UNAVAILABLE", call.events.get(call.events.size() - 1));
  }

  @Test
  void anErrorWithoutABodyIsItsHttpStatus() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("401", null), true, true, call);
    assertEquals(List.of("end UNAUTHENTICATED"), call.events);
  }

  @Test
  void aBodyOverTheLimitFailsAndWhatWasHeldIsReleased() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(8, null, "proto", false);
    framing.headersRead(head("200", "application/proto"), true, false, call);
    framing.dataRead(text("12345"), false, call);
    framing.dataRead(text("67890"), false, call);
    assertEquals(List.of("headers identity", "consumed 5", "consumed 5", "fail RESOURCE_EXHAUSTED"), call.events);
    // The stream releases the framing as the call closes; the leak detector checks the first part went.
    framing.release();
  }

  @Test
  void aBodyCutShortIsReleasedWithTheCall() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("200", "application/proto"), true, false, call);
    framing.dataRead(text("part"), false, call);
    framing.dataRead(text("another"), false, call);
    framing.release();
    assertEquals(List.of("headers identity", "consumed 4", "consumed 7"), call.events);
  }

  @Test
  void aStreamingContentTypeIsNotConnectUnary() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    assertEquals(List.of("fail UNKNOWN"), call.events);
  }

  @Test
  void aContentEncodingTheClientDoesNotKnowFails() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("200", "application/proto").add("content-encoding", "br"), true, false, call);
    assertEquals(List.of("fail INTERNAL"), call.events);
  }

  @Test
  void httpTrailersEndTheResponse() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("200", "application/proto"), true, false, call);
    framing.dataRead(text("m"), false, call);
    framing.headersRead(new DefaultHttp2Headers().add("x-ignored", "1"), false, true, call);
    assertEquals(List.of("headers identity", "consumed 1", "message m", "end OK"), call.events);
  }

  private static Http2Headers postHead(ConnectUnaryClientFraming framing, MessageEncoding encoding) {
    Http2Headers headers = new DefaultHttp2Headers().method("POST").path("/pkg.S/M");
    framing.addRequestHeaders(headers, 0, encoding);
    return headers;
  }

  @Test
  void aGetCarriesTheMessageBase64urlInTheQueryAndNoBody() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "json", true);
    Http2Headers headers = postHead(framing, null);
    assertTrue(framing.sendsMessageInHead());
    ByteBuf body = framing.requestBody(framed(false, "{\"a\":\"?>\"}"), headers);
    assertEquals(0, body.readableBytes());
    assertEquals("GET", headers.method().toString());
    String prefix = "/pkg.S/M?connect=v1&encoding=json&base64=1&message=";
    String path = headers.path().toString();
    assertTrue(path.startsWith(prefix), path);
    assertEquals("{\"a\":\"?>\"}", new String(java.util.Base64.getUrlDecoder().decode(path.substring(prefix.length())),
        StandardCharsets.UTF_8));
    assertFalse(path.contains("="  + "=") || path.endsWith("="), "unpadded");
    assertNull(headers.get("content-type"));
    assertNull(headers.get("connect-protocol-version"));
    assertEquals("gzip", headers.get("accept-encoding").toString());
  }

  @Test
  void aCompressedGetNamesItsCompressionInTheQuery() throws IOException {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, MessageEncoding.GZIP, "proto", true);
    Http2Headers headers = postHead(framing, MessageEncoding.GZIP);
    framing.requestBody(framed(false, "hello"), headers).release();
    String path = headers.path().toString();
    assertTrue(path.contains("&compression=gzip&"), path);
    assertNull(headers.get("content-encoding"));
    byte[] message = java.util.Base64.getUrlDecoder().decode(path.substring(path.indexOf("message=") + 8));
    try (InputStream in = MessageEncoding.GZIP.decompress(new java.io.ByteArrayInputStream(message))) {
      assertEquals("hello", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aGetWhoseTargetWouldPassTheLimitStaysAPost() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", true);
    Http2Headers headers = postHead(framing, null);
    ByteBuf body = framing.requestBody(framed(false, "x".repeat(ConnectUnaryClientFraming.MAX_GET_TARGET)), headers);
    assertEquals(ConnectUnaryClientFraming.MAX_GET_TARGET, body.readableBytes());
    body.release();
    assertEquals("POST", headers.method().toString());
    assertEquals("/pkg.S/M", headers.path().toString());
    assertEquals("application/proto", headers.get("content-type").toString());
  }

  @Test
  void withoutGetAnIdempotentCallIsAPost() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    assertFalse(framing.sendsMessageInHead());
    Http2Headers headers = postHead(framing, null);
    framing.requestBody(framed(false, "m"), headers).release();
    assertEquals("POST", headers.method().toString());
  }

  @Test
  void theJsonCodecSendsAndExpectsApplicationJson() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "json", false);
    assertEquals("application/json", postHead(framing, null).get("content-type").toString());
    framing.headersRead(head("200", "application/json"), true, false, call);
    assertEquals(List.of("headers identity"), call.events);
  }

  @Test
  void aResponseInAnotherCodecIsInternal() {
    ConnectUnaryClientFraming framing = new ConnectUnaryClientFraming(100, null, "proto", false);
    framing.headersRead(head("200", "application/json"), true, false, call);
    assertEquals(List.of("fail INTERNAL"), call.events);
  }
}
