package io.triplerpc.opentelemetry;

import io.triplerpc.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Records what a stream delivers, for tests to wait on. */
final class RecordingObserver<T> implements StreamObserver<T> {

  private final List<T> values = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> first = new CompletableFuture<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private volatile Throwable error;

  @Override
  public void onNext(T value) {
    values.add(value);
    first.complete(null);
  }

  @Override
  public void onError(Throwable t) {
    error = t;
    done.complete(null);
  }

  @Override
  public void onCompleted() {
    done.complete(null);
  }

  List<T> values() {
    return values;
  }

  Throwable error() {
    return error;
  }

  void awaitFirst() throws Exception {
    first.get(10, TimeUnit.SECONDS);
  }

  /** Waits for onCompleted or onError. */
  void awaitEnd() throws Exception {
    done.get(10, TimeUnit.SECONDS);
  }
}
