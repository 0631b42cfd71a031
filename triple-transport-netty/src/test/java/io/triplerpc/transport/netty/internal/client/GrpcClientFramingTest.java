package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** gRPC's framing alone: frames in, the call's events out. */
class GrpcClientFramingTest {

  private final ClientFraming framing = GrpcClientFraming.INSTANCE;
  private final RecordingCallEvents call = new RecordingCallEvents();

  static Http2Headers head(String status, String contentType) {
    Http2Headers headers = new DefaultHttp2Headers().status(status);
    if (contentType != null) {
      headers.set("content-type", contentType);
    }
    return headers;
  }

  @Test
  void requestHeadersNameGrpcTrailersTheDeadlineAndTheEncoding() {
    Http2Headers headers = new DefaultHttp2Headers();
    framing.addRequestHeaders(headers, TimeUnit.SECONDS.toNanos(2), MessageEncoding.GZIP);
    assertEquals("application/grpc", headers.get("content-type").toString());
    assertEquals("trailers", headers.get("te").toString());
    assertEquals("gzip", headers.get("grpc-encoding").toString());
    assertEquals("gzip", headers.get("grpc-accept-encoding").toString());
    assertTrue(headers.contains("grpc-timeout"));
    framing.announceTimeout(headers, TimeUnit.MILLISECONDS.toNanos(5));
    assertEquals(1, headers.getAll("grpc-timeout").size());
  }

  @Test
  void aHeadThenMessagesThenTrailersEndTheCallAfterTheMessages() {
    framing.headersRead(head("200", "application/grpc+proto").add("grpc-encoding", "gzip"), true, false, call);
    framing.dataRead(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 1, 7}), false, call);
    framing.headersRead(new DefaultHttp2Headers().add("grpc-status", "5").add("grpc-message", "gone"), false, true, call);
    assertEquals(List.of("headers gzip", "framed 000000000107", "trailers NOT_FOUND"), call.events);
    assertEquals("gone", call.status.description());
  }

  @Test
  void aTrailersOnlyAnswerWithAnHttpErrorIsReadFromItsGrpcStatus() {
    framing.headersRead(head("500", "application/grpc").add("grpc-status", "7"), true, true, call);
    assertEquals(List.of("trailers PERMISSION_DENIED"), call.events);
  }

  @Test
  void anHttpErrorWithoutGrpcStatusIsTheMappedHttpStatus() {
    framing.headersRead(head("503", "text/html"), true, true, call);
    assertEquals(List.of("fail UNAVAILABLE"), call.events);
    assertTrue(call.status.description().contains("text/html"), call.status.description());
  }

  @Test
  void aHeadWithoutAValidStatusFails() {
    framing.headersRead(head("abc", "application/grpc"), true, false, call);
    assertEquals(List.of("fail INTERNAL"), call.events);
  }

  @Test
  void aHeadInAnotherContentTypeFailsAsUnknown() {
    framing.headersRead(head("200", "application/json"), true, false, call);
    assertEquals(List.of("fail UNKNOWN"), call.events);
    assertTrue(call.status.description().startsWith("Response is not GRPC"), call.status.description());
  }

  @Test
  void anEncodingTheClientDoesNotKnowFails() {
    framing.headersRead(head("200", "application/grpc").add("grpc-encoding", "snappy"), true, false, call);
    assertEquals(List.of("fail INTERNAL"), call.events);
  }

  @Test
  void trailersWithoutGrpcStatusEndTheCallAsUnknown() {
    framing.headersRead(head("200", "application/grpc"), true, false, call);
    framing.headersRead(new DefaultHttp2Headers(), false, true, call);
    assertEquals(List.of("headers identity", "trailers UNKNOWN"), call.events);
  }

  @Test
  void aSecondHeaderBlockThatDoesNotEndTheStreamFails() {
    framing.headersRead(head("200", "application/grpc"), true, false, call);
    framing.headersRead(new DefaultHttp2Headers().add("grpc-status", "0"), false, false, call);
    assertEquals(List.of("headers identity", "fail INTERNAL"), call.events);
  }

  @Test
  void dataThatEndsTheStreamWithoutTrailersFailsAfterItsMessages() {
    framing.headersRead(head("200", "application/grpc"), true, false, call);
    framing.dataRead(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 0}), true, call);
    assertEquals(List.of("headers identity", "framed 0000000000", "fail INTERNAL"), call.events);
  }

  @Test
  void theJsonCodecSendsApplicationGrpcJson() {
    Http2Headers headers = new io.netty.handler.codec.http2.DefaultHttp2Headers();
    GrpcClientFraming.JSON.addRequestHeaders(headers, 0, null);
    assertEquals("application/grpc+json", headers.get("content-type").toString());
  }
}
