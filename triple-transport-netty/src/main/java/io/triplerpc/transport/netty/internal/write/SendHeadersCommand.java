package io.triplerpc.transport.netty.internal.write;

import io.netty.handler.codec.http2.Http2Headers;

/** Sends a header block on an existing stream: server response headers, or trailers with END_STREAM. */
public final class SendHeadersCommand extends AbstractCommand {

  private final Http2Headers headers;
  private final boolean endOfStream;

  public SendHeadersCommand(StreamHandle stream, Http2Headers headers, boolean endOfStream) {
    super(stream);
    this.headers = headers;
    this.endOfStream = endOfStream;
  }

  public Http2Headers headers() {
    return headers;
  }

  public boolean endOfStream() {
    return endOfStream;
  }
}
