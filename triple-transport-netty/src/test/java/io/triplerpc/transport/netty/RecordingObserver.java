package io.triplerpc.transport.netty;

import io.triplerpc.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Records what a stream delivers, for tests to wait on. */
class RecordingObserver<T> implements StreamObserver<T> {

  private final List<T> values = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final List<CompletableFuture<T>> waiters = new CopyOnWriteArrayList<>();
  private volatile Throwable error;

  @Override
  public void onNext(T value) {
    values.add(value);
    synchronized (waiters) {
      int index = values.size() - 1;
      while (waiters.size() <= index) {
        waiters.add(new CompletableFuture<>());
      }
      waiters.get(index).complete(value);
    }
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

  /** Waits for the value at {@code index}. */
  T awaitValue(int index) throws Exception {
    CompletableFuture<T> waiter;
    synchronized (waiters) {
      while (waiters.size() <= index) {
        waiters.add(new CompletableFuture<>());
      }
      waiter = waiters.get(index);
    }
    return waiter.get(10, TimeUnit.SECONDS);
  }

  /** Waits for onCompleted or onError. */
  void awaitCompletion() throws Exception {
    try {
      done.get(20, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("stream did not end; got " + values.size() + " values", e);
    }
  }
}
