package io.triplerpc;

/** A {@link ServerCall.Listener} that passes every event to another; override what you want to see. */
public class ForwardingServerCallListener<Q> extends ServerCall.Listener<Q> {

  private final ServerCall.Listener<Q> delegate;

  public ForwardingServerCallListener(ServerCall.Listener<Q> delegate) {
    this.delegate = delegate;
  }

  @Override
  public void onMessage(Q message) {
    delegate.onMessage(message);
  }

  @Override
  public void onHalfClose() {
    delegate.onHalfClose();
  }

  @Override
  public void onCancel() {
    delegate.onCancel();
  }

  @Override
  public void onComplete() {
    delegate.onComplete();
  }

  @Override
  public void onReady() {
    delegate.onReady();
  }
}
