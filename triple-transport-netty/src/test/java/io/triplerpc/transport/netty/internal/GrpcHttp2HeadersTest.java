package io.triplerpc.transport.netty.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Metadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrpcHttp2HeadersTest {

  /** A request's header block with everything the conversion treats specially. */
  private static Http2Headers received() {
    Http2Headers headers = new DefaultHttp2Headers(false)
        .method("POST").path("/pkg.Service/Method").scheme("http").authority("127.0.0.1:50051");
    headers.add("content-type", "application/grpc");
    headers.add("te", "trailers");
    headers.add("grpc-timeout", "1S");
    headers.add("user-agent", "grpc-java-netty/1.85.1");
    headers.add("version", "1.0");
    headers.add("x-ids-bin", "AQI, AwQ");
    headers.add("x-broken-bin", "not base64!");
    headers.add("x-tab", "a\tb");
    headers.add("Version", "2.0");
    return headers;
  }

  @Test
  void lazyMetadataHoldsWhatTheConversionGives() {
    Metadata eager = GrpcHttp2Headers.toMetadata(received());
    Metadata lazy = GrpcHttp2Headers.lazyMetadata(received());
    assertEquals(eager.toString(), lazy.toString());
    assertEquals("Metadata(user-agent=grpc-java-netty/1.85.1,version=1.0,x-ids-bin=2 bytes,x-ids-bin=2 bytes,"
        + "version=2.0)", eager.toString());
  }

  @Test
  void lazyLookupsAgreeWithTheConversion() {
    Metadata eager = GrpcHttp2Headers.toMetadata(received());
    for (String key : List.of("version", "VERSION", "user-agent", "x-tab", "content-type", ":path", "te", "absent")) {
      assertEquals(eager.get(key), GrpcHttp2Headers.lazyMetadata(received()).get(key), key);
    }
    assertEquals("2.0", GrpcHttp2Headers.lazyMetadata(received()).get("version"));
    assertNull(GrpcHttp2Headers.lazyMetadata(received()).get("content-type"), "reserved");
    assertArrayEquals(new byte[] {3, 4}, GrpcHttp2Headers.lazyMetadata(received()).getBinary("x-ids-bin"));
  }
}
