package io.triplerpc.transport.netty;

import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Records the events of a low-level client call, in order, with the thread each ran on. */
class RecordingListener<R> extends ClientCall.Listener<R> {

  final List<String> events = new CopyOnWriteArrayList<>();
  final List<R> messages = new CopyOnWriteArrayList<>();
  final CompletableFuture<Metadata> headers = new CompletableFuture<>();
  final CompletableFuture<Status> closed = new CompletableFuture<>();
  volatile Metadata trailers;
  volatile Thread messageThread;

  @Override
  public void onHeaders(Metadata headers) {
    events.add("headers");
    this.headers.complete(headers);
  }

  @Override
  public void onMessage(R message) {
    events.add("message");
    messageThread = Thread.currentThread();
    messages.add(message);
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    events.add("close:" + status.code());
    this.trailers = trailers;
    closed.complete(status);
  }

  Status awaitClose() {
    try {
      return closed.get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("call did not close; events " + events, e);
    }
  }
}
