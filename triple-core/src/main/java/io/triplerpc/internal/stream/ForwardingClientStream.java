package io.triplerpc.internal.stream;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Status;

/** A {@link ClientStream} that passes everything to another: a base for streams that watch or hold one part. */
public abstract class ForwardingClientStream implements ClientStream {

  private final ClientStream delegate;

  protected ForwardingClientStream(ClientStream delegate) {
    this.delegate = delegate;
  }

  protected final ClientStream delegate() {
    return delegate;
  }

  @Override
  public void start(ClientStreamListener listener, boolean headersNow) {
    delegate.start(listener, headersNow);
  }

  @Override
  public void request(int count) {
    delegate.request(count);
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean endOfStream) {
    delegate.writeMessage(framed, endOfStream);
  }

  @Override
  public void halfClose() {
    delegate.halfClose();
  }

  @Override
  public void cancel(Status status) {
    delegate.cancel(status);
  }

  @Override
  public boolean isReady() {
    return delegate.isReady();
  }
}
