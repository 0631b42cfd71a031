package io.triplerpc;

/** A {@link ServerCall.Listener} that passes every event to another; override what you want to see. */
public class ForwardingServerCallListener<Q> extends ServerCall.Listener<Q> {

  private final ServerCall.Listener<Q> delegate;

  public ForwardingServerCallListener(ServerCall.Listener<Q> delegate) {
    this.delegate = delegate;
  }

  /**
   * The listener events go to. The server looks through forwarding listeners that leave
   * {@code onComplete} as it is: when none down the chain listens to it, the call ends without a hand-off
   * to the service's executor.
   */
  public final ServerCall.Listener<Q> delegate() {
    return delegate;
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
