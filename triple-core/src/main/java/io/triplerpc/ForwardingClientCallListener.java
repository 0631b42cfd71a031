package io.triplerpc;

/** A {@link ClientCall.Listener} that passes every event to another; override what you want to see. */
public class ForwardingClientCallListener<R> extends ClientCall.Listener<R> {

  private final ClientCall.Listener<R> delegate;

  public ForwardingClientCallListener(ClientCall.Listener<R> delegate) {
    this.delegate = delegate;
  }

  @Override
  public void onHeaders(Metadata headers) {
    delegate.onHeaders(headers);
  }

  @Override
  public void onMessage(R message) {
    delegate.onMessage(message);
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    delegate.onClose(status, trailers);
  }

  @Override
  public void onReady() {
    delegate.onReady();
  }
}
