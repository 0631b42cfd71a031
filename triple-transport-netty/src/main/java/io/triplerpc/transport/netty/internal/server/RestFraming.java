package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.rest.RestErrors;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.nio.charset.StandardCharsets;

/**
 * A REST call ({@code google.api.http}): the request body is JSON the method's REST codec reads with
 * the path and query; the response is one head and one body when the call ends, 200 with the JSON
 * response, or the HTTP status of the error's code with {@code google.rpc.Status} in JSON, as
 * grpc-gateway answers. Response headers and trailers go as {@code grpc-metadata-} and
 * {@code grpc-trailer-} headers, grpc-gateway's names for them.
 */
final class RestFraming implements WebFraming {

  static final RestFraming INSTANCE = new RestFraming();

  private static final String METADATA_PREFIX = "grpc-metadata-";
  private static final String TRAILER_PREFIX = "grpc-trailer-";

  private RestFraming() {}

  @Override
  public String protocol() {
    return "rest";
  }

  @Override
  public boolean unframedRequest() {
    return true;
  }

  @Override
  public boolean headAtEnd() {
    return true;
  }

  @Override
  public Http2Headers head(Metadata headers, MessageEncoding encoding) {
    throw new UnsupportedOperationException("A REST response has its head written at its end");
  }

  @Override
  public End end(Status status, Metadata headers, MessageEncoding encoding, ByteBuf message, Metadata trailers,
      boolean headSent, ByteBufAllocator alloc) {
    if (status.isOk() && message == null) {
      status = Status.INTERNAL.withDescription("The service completed without a response");
    }
    if (!status.isOk()) {
      if (message != null) {
        message.release();
      }
      End error = refused(RestErrors.httpStatus(status.code()), status, alloc);
      addMetadata(error.head(), headers, trailers);
      return error;
    }
    message.skipBytes(GrpcHeaders.MESSAGE_HEADER_LENGTH);
    Http2Headers head = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
    head.add(GrpcHeaders.CONTENT_TYPE, ConnectWire.APPLICATION_JSON);
    addMetadata(head, headers, trailers);
    return new End(head, message);
  }

  @Override
  public End refused(int httpStatus, Status status, ByteBufAllocator alloc) {
    Http2Headers head = new DefaultHttp2Headers(false).status(AsciiString.of(Integer.toString(httpStatus)));
    head.add(GrpcHeaders.CONTENT_TYPE, ConnectWire.APPLICATION_JSON);
    // The text first: nothing is allocated that an exception there would leak.
    String json = RestErrors.json(status);
    ByteBuf body = alloc.buffer(json.length());
    body.writeCharSequence(json, StandardCharsets.UTF_8);
    return new End(head, body);
  }

  private static void addMetadata(Http2Headers head, Metadata headers, Metadata trailers) {
    GrpcHttp2Headers.addMetadata(head, headers, METADATA_PREFIX);
    GrpcHttp2Headers.addMetadata(head, trailers, TRAILER_PREFIX);
  }
}
