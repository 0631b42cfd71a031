package io.triplerpc.transport.netty.internal.write;

import io.netty.handler.codec.http2.Http2Headers;

/**
 * Sends the head of an HTTP response (a HEADERS frame, {@code :status} included) for a web protocol's
 * exchange (Connect, gRPC-Web), optionally ending the stream. Its writer learns of failures from the
 * body's writes, so a failed head reports nothing.
 */
public final class SendHeadCommand extends AbstractCommand {

  private final Http2Headers head;
  private final boolean endOfStream;

  public SendHeadCommand(StreamHandle stream, Http2Headers head, boolean endOfStream) {
    super(stream);
    this.head = head;
    this.endOfStream = endOfStream;
  }

  public Http2Headers head() {
    return head;
  }

  public boolean endOfStream() {
    return endOfStream;
  }

  @Override
  void failed(Throwable cause) {}
}
