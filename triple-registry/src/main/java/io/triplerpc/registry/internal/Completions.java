package io.triplerpc.registry.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/** Runs what follows a registry's answer without borrowing the registry's own threads. */
final class Completions {

  private Completions() {}

  /**
   * Runs {@code action} now if {@code future} is done (an in-process registry's answers), else on
   * {@code executor} when it completes: a remote registry's threads (ZooKeeper's event thread among
   * them) must not wait for the directory's locks or files.
   */
  static <T> void whenDone(CompletableFuture<T> future, BiConsumer<? super T, ? super Throwable> action, Executor executor) {
    if (future.isDone()) {
      future.whenComplete(action);
    } else {
      future.whenCompleteAsync(action, executor);
    }
  }
}
