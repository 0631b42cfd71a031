package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * A whole single-message response in one command: headers (unless already sent), the framed message
 * and the trailers that end the stream. One queue slot and one pass through the pipeline instead of
 * three, for the most common answer there is. Holds its buffer as {@link SendDataCommand} does.
 */
public final class SendResponseCommand extends DefaultByteBufHolder implements QueuedCommand {

  private final StreamHandle stream;
  private final Http2Headers headers;
  private final Http2Headers trailers;
  private ChannelPromise promise;

  /** {@code headers} null when they went out before. */
  public SendResponseCommand(StreamHandle stream, Http2Headers headers, ByteBuf message, Http2Headers trailers) {
    super(message);
    this.stream = stream;
    this.headers = headers;
    this.trailers = trailers;
  }

  /** The stream the command is for. */
  public StreamHandle stream() {
    return stream;
  }

  /** The response headers, or null. */
  public Http2Headers headers() {
    return headers;
  }

  public Http2Headers trailers() {
    return trailers;
  }

  @Override
  public ChannelPromise promise() {
    return promise;
  }

  @Override
  public void promise(ChannelPromise promise) {
    this.promise = promise;
    promise.addListener(this);
  }

  @Override
  public void operationComplete(ChannelFuture future) {
    if (!future.isSuccess()) {
      stream.writeFailed(future.cause());
    }
  }

  @Override
  public void fail(Throwable cause) {
    if (refCnt() > 0) {
      release();
    }
    stream.writeFailed(cause);
  }
}
