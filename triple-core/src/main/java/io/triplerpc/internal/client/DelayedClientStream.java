package io.triplerpc.internal.client;

import io.netty.buffer.ByteBuf;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientStreamListener;
import io.triplerpc.internal.stream.FailedClientStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A stream whose real stream is not known yet (the call waits for its credentials): what the call
 * does meanwhile is kept, in order, and replayed on the real stream once {@link #resolve} gives it.
 * A cancel before then resolves it to a {@link FailedClientStream}, which closes the listener and
 * releases the kept messages.
 *
 * <p>Thread-safe; the operations kept are replayed outside the lock, and calls made during the replay
 * are kept too, so the real stream sees every operation in the call's order and never two at once.
 */
final class DelayedClientStream implements ClientStream {

  /** One kept operation. */
  private interface Operation {
    void applyTo(ClientStream stream);
  }

  /** The real stream, once every kept operation was replayed on it; guarded by this. */
  private ClientStream real;
  /** Whether {@link #resolve} was called; guarded by this. */
  private boolean resolved;
  /** Operations kept until the real stream is there; guarded by this. */
  private List<Operation> kept = new ArrayList<>();

  /**
   * Gives the real stream and replays what was kept on it; returns false, and leaves {@code stream}
   * untouched, if the stream was resolved already (cancelled, say).
   */
  boolean resolve(ClientStream stream) {
    synchronized (this) {
      if (resolved) {
        return false;
      }
      resolved = true;
    }
    while (true) {
      List<Operation> batch;
      synchronized (this) {
        if (kept.isEmpty()) {
          real = stream;
          kept = null;
          return true;
        }
        batch = kept;
        kept = new ArrayList<>();
      }
      for (Operation operation : batch) {
        operation.applyTo(stream);
      }
    }
  }

  /** Fails the stream with {@code status}: the listener is closed with it once started. */
  void fail(Status status) {
    resolve(new FailedClientStream(status));
  }

  /** Runs {@code operation} on the real stream if it is there, else keeps it. */
  private void run(Operation operation) {
    ClientStream stream;
    synchronized (this) {
      stream = real;
      if (stream == null) {
        kept.add(operation);
        return;
      }
    }
    operation.applyTo(stream);
  }

  @Override
  public void start(ClientStreamListener listener, boolean headersNow) {
    run(stream -> stream.start(listener, headersNow));
  }

  @Override
  public void request(int count) {
    run(stream -> stream.request(count));
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean endOfStream) {
    run(stream -> stream.writeMessage(framed, endOfStream));
  }

  @Override
  public void halfClose() {
    run(ClientStream::halfClose);
  }

  @Override
  public void cancel(Status status) {
    // Before the real stream: it will never be made, and the kept messages are released.
    fail(status);
    run(stream -> stream.cancel(status));
  }

  @Override
  public boolean isReady() {
    ClientStream stream;
    synchronized (this) {
      stream = real;
    }
    return stream != null && stream.isReady();
  }
}
