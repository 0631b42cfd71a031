package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.HttpUnary;
import java.nio.charset.StandardCharsets;

/**
 * Writes the one response of an HTTP unary exchange, over HTTP/1.1 or on an HTTP/2 stream. Called on
 * the event loop only.
 */
interface HttpResponseWriter {

  /**
   * Writes and flushes a whole response; owns {@code body}. {@code headers} (may be null) become HTTP
   * headers; {@code allow} (may be null) is the {@code allow} header of a 405.
   */
  ChannelFuture writeResponse(int status, CharSequence contentType, Metadata headers, CharSequence allow, ByteBuf body);

  /** Writes an error: {@code httpStatus} and the JSON error body naming {@code status}. */
  default ChannelFuture writeError(ByteBufAllocator alloc, int httpStatus, Status status, CharSequence allow) {
    ByteBuf body = alloc.buffer();
    body.writeCharSequence(HttpUnary.errorBody(status), StandardCharsets.UTF_8);
    return writeResponse(httpStatus, HttpUnary.APPLICATION_JSON_UTF8, null, allow, body);
  }
}
