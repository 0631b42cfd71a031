package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Metadata;
import io.triplerpc.Status;

/**
 * A stream that failed before it could be sent (no connection, no credentials, cancelled while
 * waiting): it closes with its status as soon as it starts and releases what is written to it.
 */
public final class FailedClientStream implements ClientStream {

  private final Status status;

  public FailedClientStream(Status status) {
    this.status = status;
  }

  @Override
  public void start(ClientStreamListener listener, boolean headersNow) {
    listener.onClose(status, new Metadata());
  }

  @Override
  public void request(int count) {}

  @Override
  public void writeMessage(ByteBuf framed, boolean endOfStream) {
    framed.release();
  }

  @Override
  public void halfClose() {}

  @Override
  public void cancel(Status status) {}

  @Override
  public boolean isReady() {
    return false;
  }
}
