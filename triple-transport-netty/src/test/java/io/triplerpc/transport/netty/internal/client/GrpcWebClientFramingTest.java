package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.client.GrpcClientFramingTest.head;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.internal.wire.MessageEncoding;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** gRPC-Web's framing alone: the trailers are the body's last envelope. */
class GrpcWebClientFramingTest {

  private final GrpcWebClientFraming framing = new GrpcWebClientFraming(1 << 20, "proto");
  private final RecordingCallEvents call = new RecordingCallEvents();

  private static ByteBuf text(String text) {
    return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
  }

  @Test
  void requestHeadersNameGrpcWebAndTheDeadline() {
    Http2Headers headers = new DefaultHttp2Headers();
    framing.addRequestHeaders(headers, 1_000_000, null);
    assertEquals("application/grpc-web+proto", headers.get("content-type").toString());
    assertEquals("1", headers.get("x-grpc-web").toString());
    assertTrue(headers.contains("grpc-timeout"));
    assertEquals(0x80, framing.endFrameFlag());
  }

  @Test
  void theBodyGoesToTheDeframerWithItsEnd() {
    framing.headersRead(head("200", "application/grpc-web+proto"), true, false, call);
    framing.dataRead(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, 0, 0, 0, 0}), true, call);
    assertEquals(List.of("headers identity", "framed 8000000000 end"), call.events);
  }

  @Test
  void theTrailerLinesEndTheCall() {
    framing.headersRead(head("200", "application/grpc-web"), true, false, call);
    framing.endFrameRead(text("grpc-status: 3\r\nGrpc-Message: bad\r\nx-extra: v\r\n"), false, call);
    assertEquals(List.of("headers identity", "end INVALID_ARGUMENT"), call.events);
    assertEquals("bad", call.status.description());
    assertEquals("v", call.trailers.get("x-extra"));
  }

  @Test
  void gzippedTrailersAreReadWithTheResponsesEncoding() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = MessageEncoding.GZIP.compress(bytes)) {
      out.write("grpc-status: 0\r\n".getBytes(StandardCharsets.UTF_8));
    }
    framing.headersRead(head("200", "application/grpc-web").add("grpc-encoding", "gzip"), true, false, call);
    framing.endFrameRead(Unpooled.wrappedBuffer(bytes.toByteArray()), true, call);
    assertEquals(List.of("headers gzip", "end OK"), call.events);
  }

  @Test
  void trailersThatDoNotDecompressFail() {
    framing.headersRead(head("200", "application/grpc-web").add("grpc-encoding", "gzip"), true, false, call);
    framing.endFrameRead(text("not gzip at all"), true, call);
    assertEquals(List.of("headers gzip", "fail INTERNAL"), call.events);
  }

  @Test
  void compressedTrailersWithoutAnEncodingFail() {
    framing.headersRead(head("200", "application/grpc-web"), true, false, call);
    framing.endFrameRead(text("grpc-status: 0\r\n"), true, call);
    assertEquals(List.of("headers identity", "fail INTERNAL"), call.events);
  }

  @Test
  void aTrailerLineWithoutAColonFails() {
    framing.headersRead(head("200", "application/grpc-web"), true, false, call);
    framing.endFrameRead(text("grpc-status 0\r\n"), false, call);
    assertEquals(List.of("headers identity", "fail INTERNAL"), call.events);
    assertTrue(call.status.description().contains("Malformed gRPC-Web trailer line"));
  }

  @Test
  void trailersWithoutGrpcStatusEndTheCallAsInternal() {
    framing.headersRead(head("200", "application/grpc-web"), true, false, call);
    framing.endFrameRead(text("x-a: b\r\n"), false, call);
    assertEquals(List.of("headers identity", "end INTERNAL"), call.events);
  }

  @Test
  void aStatusInTheHeadEndsABodyWithoutTrailers() {
    framing.headersRead(head("200", "application/grpc-web").add("grpc-status", "16"), true, false, call);
    framing.endedWithoutTrailers(call);
    assertEquals(List.of("headers identity", "close UNAUTHENTICATED"), call.events);
  }

  @Test
  void aBodyWithoutTrailersOrAStatusInTheHeadFails() {
    framing.headersRead(head("200", "application/grpc-web"), true, false, call);
    framing.endedWithoutTrailers(call);
    assertEquals(List.of("headers identity", "close INTERNAL"), call.events);
    assertTrue(call.status.description().contains("GRPC_WEB response without trailers"));
  }

  @Test
  void aGrpcContentTypeIsNotGrpcWeb() {
    framing.headersRead(head("200", "application/grpc"), true, false, call);
    assertEquals(List.of("fail UNKNOWN"), call.events);
  }

  @Test
  void anHttpErrorWithGrpcStatusButAGrpcWebContentTypeIsTheMappedHttpStatus() {
    framing.headersRead(head("500", "application/grpc-web").add("grpc-status", "5"), true, true, call);
    assertEquals(List.of("fail UNKNOWN"), call.events);
  }

  @Test
  void theJsonCodecSendsAndExpectsItsJsonContentType() {
    GrpcWebClientFraming json = new GrpcWebClientFraming(1 << 20, "json");
    io.netty.handler.codec.http2.Http2Headers headers = new io.netty.handler.codec.http2.DefaultHttp2Headers();
    json.addRequestHeaders(headers, 0, null);
    assertEquals("application/grpc-web+json", headers.get("content-type").toString());
    json.headersRead(GrpcClientFramingTest.head("200", "application/grpc-web+json"), true, false, call);
    assertEquals(java.util.List.of("headers identity"), call.events);
  }

  @Test
  void aResponseInAnotherCodecThanTheRequestsIsInternalAndAnotherTypeUnknown() {
    GrpcWebClientFraming proto = new GrpcWebClientFraming(1 << 20, "proto");
    proto.headersRead(GrpcClientFramingTest.head("200", "application/grpc-web+json"), true, false, call);
    GrpcWebClientFraming other = new GrpcWebClientFraming(1 << 20, "proto");
    other.headersRead(GrpcClientFramingTest.head("200", "text/plain"), true, false, call);
    assertEquals(java.util.List.of("fail INTERNAL", "fail UNKNOWN"), call.events);
  }

  @Test
  void aBareGrpcWebContentTypeIsProtobuf() {
    framing.headersRead(GrpcClientFramingTest.head("200", "application/grpc-web"), true, false, call);
    assertEquals(java.util.List.of("headers identity"), call.events);
  }
}
