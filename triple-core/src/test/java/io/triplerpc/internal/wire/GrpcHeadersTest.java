package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GrpcHeadersTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "application/grpc", "application/grpc+proto", "application/grpc+json", "application/grpc;charset=utf-8",
      "Application/GRPC", "APPLICATION/GRPC+PROTO"})
  void grpcContentTypesAreRecognizedIgnoringCase(String contentType) {
    assertTrue(GrpcHeaders.isGrpcContentType(contentType));
    assertTrue(GrpcHeaders.isGrpcContentType(AsciiString.of(contentType)));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "application/gr", "application/grpcx", "application/grpc-web", "application/grpc-web-text",
      "application/json", "text/plain", " application/grpc"})
  void otherContentTypesAreNotGrpc(String contentType) {
    assertFalse(GrpcHeaders.isGrpcContentType(contentType));
  }

  @Test
  void aMissingContentTypeIsNotGrpc() {
    assertFalse(GrpcHeaders.isGrpcContentType(null));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      ":path", ":status", ":authority", "", "content-type", "te", "grpc-timeout", "grpc-encoding",
      "grpc-accept-encoding", "grpc-status", "grpc-message", "connection", "host"})
  void transportHeadersAreReserved(String name) {
    assertTrue(GrpcHeaders.isReserved(name));
    assertTrue(GrpcHeaders.isReserved(AsciiString.of(name)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"x-trace-id", "authorization", "user-agent", "grpc-status-details-bin", "trace-bin", "tee"})
  void applicationHeadersAreNotReserved(String name) {
    assertFalse(GrpcHeaders.isReserved(name));
  }

  @Test
  void theMessagePrefixIsFiveBytes() {
    assertEquals(5, GrpcHeaders.MESSAGE_HEADER_LENGTH);
  }

  @Test
  void codecOfAContentTypeIsItsSubtypeLowerCased() {
    assertEquals(null, GrpcHeaders.codecOf("application/grpc"));
    assertEquals(null, GrpcHeaders.codecOf(null));
    assertSame(GrpcHeaders.codecOf("application/grpc+json"), GrpcHeaders.codecOf("application/grpc-web+JSON ; x=1"),
        "the known codecs are the same string each time, built on no call");
    assertEquals("proto", GrpcHeaders.codecOf("application/connect+proto;charset=utf-8"));
    assertEquals("foo", GrpcHeaders.codecOf("application/grpc+Foo"));
  }
}
