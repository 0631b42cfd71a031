package io.triplerpc.transport.netty.internal.write;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * Sends the head of an HTTP response (a HEADERS frame, {@code :status} included) for a web protocol's
 * exchange (Connect, gRPC-Web), optionally ending the stream. Its writer learns of failures from the
 * body's writes, so a failed head reports nothing.
 */
public final class SendHeadCommand implements QueuedCommand {

  private final StreamHandle stream;
  private final Http2Headers head;
  private final boolean endOfStream;
  private ChannelPromise promise;

  public SendHeadCommand(StreamHandle stream, Http2Headers head, boolean endOfStream) {
    this.stream = stream;
    this.head = head;
    this.endOfStream = endOfStream;
  }

  /** The stream the command is for. */
  public StreamHandle stream() {
    return stream;
  }

  public Http2Headers head() {
    return head;
  }

  public boolean endOfStream() {
    return endOfStream;
  }

  @Override
  public ChannelPromise promise() {
    return promise;
  }

  @Override
  public void promise(ChannelPromise promise) {
    this.promise = promise;
  }

  @Override
  public void operationComplete(ChannelFuture future) {}

  @Override
  public void fail(Throwable cause) {}
}
