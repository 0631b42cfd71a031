package io.triplerpc.registry.internal;

import java.util.concurrent.TimeUnit;

/** Runs a directory's later work on its cluster's scheduler; once the cluster is closed, drops it. */
@FunctionalInterface
interface Scheduling {

  void schedule(Runnable task, long delay, TimeUnit unit);
}
