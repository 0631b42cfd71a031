package io.triplerpc.transport.netty.internal.write;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * Answers a request that opens no call (a gRPC request the server cannot serve) with a whole response:
 * its head, then its body if it has one, ending the stream. Nothing is reported back: no call waits
 * for the outcome. Holds its body as every {@link AbstractBufferCommand} does.
 */
public final class RejectStreamCommand extends AbstractBufferCommand {

  private final Http2Headers head;

  /** @param body the response's body, possibly empty (then the head ends the stream) */
  public RejectStreamCommand(int streamId, Http2Headers head, ByteBuf body) {
    super(new Unattached(streamId), body);
    this.head = head;
  }

  /** The response's head, {@code :status} included. */
  public Http2Headers head() {
    return head;
  }

  @Override
  void failed(Throwable cause) {}

  /** A stream that has no call: only its id matters. */
  private record Unattached(int id) implements StreamHandle {

    @Override
    public void onDataSent(int bytes) {}

    @Override
    public void writeFailed(Throwable cause) {}
  }
}
