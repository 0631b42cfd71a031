package io.triplerpc;

/** A {@link ClientCall} that passes everything to another; override what you want to see. */
public class ForwardingClientCall<Q, R> extends ClientCall<Q, R> {

  private final ClientCall<Q, R> delegate;

  public ForwardingClientCall(ClientCall<Q, R> delegate) {
    this.delegate = delegate;
  }

  protected final ClientCall<Q, R> delegate() {
    return delegate;
  }

  @Override
  public void start(Listener<R> listener, Metadata headers) {
    delegate.start(listener, headers);
  }

  @Override
  public void request(int count) {
    delegate.request(count);
  }

  @Override
  public void cancel(String message, Throwable cause) {
    delegate.cancel(message, cause);
  }

  @Override
  public void halfClose() {
    delegate.halfClose();
  }

  @Override
  public void sendMessage(Q message) {
    delegate.sendMessage(message);
  }

  @Override
  public boolean isReady() {
    return delegate.isReady();
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    delegate.setMessageCompression(enabled);
  }
}
