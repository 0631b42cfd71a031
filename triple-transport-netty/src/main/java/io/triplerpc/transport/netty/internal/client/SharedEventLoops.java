package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.EventLoopGroup;
import io.triplerpc.transport.netty.internal.EventLoops;
import java.util.concurrent.TimeUnit;

/**
 * The event loops shared by every client that does not ask for threads of its own, one per core, as
 * grpc-java's channels share theirs. A process calling many services (a client each) then runs one
 * loop per core rather than a thread per client, and each loop serves several connections, so it
 * sleeps less and writes more per wake-up (docs/benchmarks.md, the connections sweep). Counted: made
 * for the first client, shut down when the last one is done with it, so closed clients leave no thread.
 */
final class SharedEventLoops {

  private static EventLoopGroup group;
  private static int users;

  private SharedEventLoops() {}

  /** The shared loops, made if no client holds them; each call needs one {@link #release}. */
  static synchronized EventLoopGroup acquire() {
    if (group == null) {
      group = EventLoops.newGroup(0, "triple-client-io");
    }
    users++;
    return group;
  }

  /** One client is done with {@code loops}: the last to be done shuts them down. */
  static synchronized void release(EventLoopGroup loops) {
    if (loops != group) {
      throw new IllegalStateException("Released event loops that are not the shared ones");
    }
    if (--users == 0) {
      group = null;
      loops.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    }
  }

  /** Clients holding the shared loops now. */
  static synchronized int users() {
    return users;
  }
}
