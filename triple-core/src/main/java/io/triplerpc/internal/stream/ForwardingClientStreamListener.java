package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.MessageEncoding;

/** A {@link ClientStreamListener} that passes every event to another, for listeners that watch some of them. */
public abstract class ForwardingClientStreamListener implements ClientStreamListener {

  private final ClientStreamListener delegate;

  protected ForwardingClientStreamListener(ClientStreamListener delegate) {
    this.delegate = delegate;
  }

  @Override
  public void onHeaders(Metadata headers, MessageEncoding responseEncoding) {
    delegate.onHeaders(headers, responseEncoding);
  }

  @Override
  public void onMessage(ByteBuf payload, boolean compressed) {
    delegate.onMessage(payload, compressed);
  }

  @Override
  public void onMessagesDelivered() {
    delegate.onMessagesDelivered();
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    delegate.onClose(status, trailers);
  }

  @Override
  public void onUnprocessed(Status status) {
    delegate.onUnprocessed(status);
  }

  @Override
  public void onReady() {
    delegate.onReady();
  }
}
