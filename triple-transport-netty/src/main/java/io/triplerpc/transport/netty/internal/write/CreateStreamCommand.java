package io.triplerpc.transport.netty.internal.write;

import io.netty.handler.codec.http2.Http2Headers;

/** Creates a client stream and sends its request headers; the stream id is allotted on the event loop. */
public final class CreateStreamCommand extends AbstractCommand {

  private final Http2Headers headers;

  public CreateStreamCommand(StreamHandle stream, Http2Headers headers) {
    super(stream);
    this.headers = headers;
  }

  public Http2Headers headers() {
    return headers;
  }

  @Override
  void written() {
    stream().headersWritten();
  }

  /** The connection closed before the stream was created: nothing of it was sent. */
  @Override
  public void fail(Throwable cause) {
    stream().neverSent(cause);
  }
}
