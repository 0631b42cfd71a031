package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStreamListener;
import java.util.function.Consumer;

/**
 * A call's listener for tests of the server connection alone: every message is released at once, a
 * cancel and {@code onReady} go to the test, the other events are ignored.
 */
final class DiscardingStreamListener implements ServerStreamListener {

  private final Consumer<Status> onCancel;
  private final Runnable onReady;

  DiscardingStreamListener() {
    this(status -> { });
  }

  DiscardingStreamListener(Consumer<Status> onCancel) {
    this(onCancel, () -> { });
  }

  DiscardingStreamListener(Consumer<Status> onCancel, Runnable onReady) {
    this.onCancel = onCancel;
    this.onReady = onReady;
  }

  @Override
  public void onMessage(ByteBuf payload, boolean compressed) {
    payload.release();
  }

  @Override
  public void onHalfClose() {
  }

  @Override
  public void onCancel(Status status) {
    onCancel.accept(status);
  }

  @Override
  public void onComplete() {
  }

  @Override
  public void onReady() {
    onReady.run();
  }
}
