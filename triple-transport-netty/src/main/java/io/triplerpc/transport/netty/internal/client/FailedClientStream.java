package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;

/** A stream that could not get a connection: it closes with its status as soon as it starts. */
final class FailedClientStream implements ClientStream {

  private final Status status;

  FailedClientStream(Status status) {
    this.status = status;
  }

  @Override
  public void start(ClientStreamListener listener) {
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
