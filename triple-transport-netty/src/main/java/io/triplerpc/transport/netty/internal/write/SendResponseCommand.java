package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * A whole single-message response in one command: headers (unless already sent), the framed message
 * and the trailers that end the stream. One queue slot and one pass through the pipeline instead of
 * three, for the most common answer there is. Holds its buffer as every {@link AbstractBufferCommand}
 * does; the server handler reports the data sent itself, once the trailers are written.
 */
public final class SendResponseCommand extends AbstractBufferCommand {

  private final Http2Headers headers;
  private final Http2Headers trailers;

  /** {@code headers} null when they went out before. */
  public SendResponseCommand(StreamHandle stream, Http2Headers headers, ByteBuf message, Http2Headers trailers) {
    super(stream, message);
    this.headers = headers;
    this.trailers = trailers;
  }

  /** The response headers, or null. */
  public Http2Headers headers() {
    return headers;
  }

  public Http2Headers trailers() {
    return trailers;
  }
}
