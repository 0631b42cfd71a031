package io.triplerpc.transport.netty.internal.client;

import static io.triplerpc.transport.netty.internal.client.GrpcClientFramingTest.head;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.internal.wire.MessageEncoding;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Connect streaming's framing alone: the body ends with a JSON end-of-stream envelope. */
class ConnectStreamClientFramingTest {

  private final ConnectStreamClientFraming framing = new ConnectStreamClientFraming(1 << 20, "proto");
  private final RecordingCallEvents call = new RecordingCallEvents();

  private void endOfStream(String json) {
    framing.endFrameRead(Unpooled.copiedBuffer(json, StandardCharsets.UTF_8), false, call);
  }

  @Test
  void requestHeadersNameConnectStreamingAndTheDeadlineInMilliseconds() {
    Http2Headers headers = new DefaultHttp2Headers();
    framing.addRequestHeaders(headers, TimeUnit.MILLISECONDS.toNanos(1500), MessageEncoding.GZIP);
    assertEquals("application/connect+proto", headers.get("content-type").toString());
    assertEquals("1", headers.get("connect-protocol-version").toString());
    assertEquals("gzip", headers.get("connect-content-encoding").toString());
    assertEquals("1500", headers.get("connect-timeout-ms").toString());
    assertFalse(headers.contains("grpc-timeout"));
    framing.announceTimeout(headers, 10);
    assertEquals("1", headers.get("connect-timeout-ms").toString());
  }

  @Test
  void anEndOfStreamWithoutAnErrorEndsTheCallWithItsTrailers() {
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    endOfStream("{\"metadata\":{\"x-a\":[\"1\",\"2\"]}}");
    assertEquals(List.of("headers identity", "end OK"), call.events);
    assertEquals(List.of("1", "2"), call.trailers.getAll("x-a"));
  }

  @Test
  void anEndOfStreamWithAnErrorEndsTheCallWithIt() {
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    endOfStream("{\"error\":{\"code\":\"resource_exhausted\",\"message\":\"too much\"}}");
    assertEquals(List.of("headers identity", "end RESOURCE_EXHAUSTED"), call.events);
    assertEquals("too much", call.status.description());
  }

  @Test
  void anErrorWithACodeThisClientDoesNotKnowIsUnknown() {
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    endOfStream("{\"error\":{\"code\":\"not_a_code\"}}");
    assertEquals(List.of("headers identity", "end UNKNOWN"), call.events);
  }

  @Test
  void anEndOfStreamThatIsNotJsonFails() {
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    endOfStream("{\"error\":");
    assertEquals(List.of("headers identity", "fail INTERNAL"), call.events);
    assertTrue(call.status.description().startsWith("Malformed Connect end-of-stream message"));
  }

  @Test
  void anEndOfStreamThatIsNotAnObjectFails() {
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    endOfStream("[]");
    assertEquals(List.of("headers identity", "fail INTERNAL"), call.events);
  }

  @Test
  void aBodyWithoutItsEndOfStreamMessageFails() {
    framing.headersRead(head("200", "application/connect+proto"), true, false, call);
    framing.endedWithoutTrailers(call);
    assertEquals(List.of("headers identity", "close INTERNAL"), call.events);
    assertTrue(call.status.description().contains("end-of-stream message"));
  }

  @Test
  void theResponsesEncodingIsConnectContentEncoding() {
    framing.headersRead(head("200", "application/connect+proto").add("connect-content-encoding", "gzip"), true, false,
        call);
    assertEquals(List.of("headers gzip"), call.events);
  }

  @Test
  void aUnaryContentTypeIsNotConnectStreaming() {
    framing.headersRead(head("200", "application/proto"), true, false, call);
    assertEquals(List.of("fail UNKNOWN"), call.events);
  }

  @Test
  void theJsonCodecSendsAndExpectsItsJsonContentType() {
    ConnectStreamClientFraming json = new ConnectStreamClientFraming(1 << 20, "json");
    io.netty.handler.codec.http2.Http2Headers headers = new io.netty.handler.codec.http2.DefaultHttp2Headers();
    json.addRequestHeaders(headers, 0, null);
    assertEquals("application/connect+json", headers.get("content-type").toString());
    json.headersRead(GrpcClientFramingTest.head("200", "application/connect+json"), true, false, call);
    assertEquals(java.util.List.of("headers identity"), call.events);
  }

  @Test
  void aResponseInAnotherCodecThanTheRequestsIsInternalAndAnotherTypeUnknown() {
    ConnectStreamClientFraming proto = new ConnectStreamClientFraming(1 << 20, "proto");
    proto.headersRead(GrpcClientFramingTest.head("200", "application/connect+json"), true, false, call);
    ConnectStreamClientFraming other = new ConnectStreamClientFraming(1 << 20, "proto");
    other.headersRead(GrpcClientFramingTest.head("200", "text/plain"), true, false, call);
    assertEquals(java.util.List.of("fail INTERNAL", "fail UNKNOWN"), call.events);
  }
}
