package io.triplerpc.interop.dubbo;

import io.triplerpc.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Records what a call's response observer receives; {@link #messages()} waits for its end. */
final class Observed<T> implements StreamObserver<T> {

  private final List<T> received = new CopyOnWriteArrayList<>();
  private final CompletableFuture<List<T>> done = new CompletableFuture<>();

  @Override
  public void onNext(T value) {
    received.add(value);
  }

  @Override
  public void onError(Throwable t) {
    done.completeExceptionally(t);
  }

  @Override
  public void onCompleted() {
    done.complete(List.copyOf(received));
  }

  /** Every message, once the call completed; throws what it failed with otherwise. */
  List<T> messages() throws InterruptedException, TimeoutException {
    try {
      return done.get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("the call failed after " + received, e.getCause());
    }
  }

  /** What the call failed with, once it failed. */
  Throwable error() throws InterruptedException, TimeoutException {
    try {
      List<T> messages = done.get(20, TimeUnit.SECONDS);
      throw new AssertionError("the call succeeded with " + messages);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
