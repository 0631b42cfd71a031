package io.triplerpc;

/**
 * A {@link StreamObserver} that sends on a call, with outbound flow control: a sender that checks
 * {@link #isReady()} and waits for the on-ready handler never buffers more than the transport's
 * small high-water mark.
 *
 * @param <T> the type of the values sent
 */
public interface CallStreamObserver<T> extends StreamObserver<T> {

  /**
   * Whether a value sent now would go out without piling up in memory. Never blocks; may be called
   * from any thread.
   */
  boolean isReady();

  /**
   * Sets a handler run, on the call's executor, each time {@link #isReady()} turns from false to true
   * (and once after the call starts). Set it before the first value is sent.
   */
  void setOnReadyHandler(Runnable onReadyHandler);

  /**
   * Whether the following values are compressed with the call's compression (if the call has one);
   * on by default.
   */
  void setMessageCompression(boolean enabled);
}
