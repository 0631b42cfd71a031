package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.EventLoopGroup;
import io.triplerpc.transport.netty.internal.IoTransport;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The event loops shared by every client that does not ask for threads of its own, one per core, as
 * grpc-java's channels share theirs. A process calling many services (a client each) then runs one
 * loop per core rather than a thread per client, and each loop serves several connections, so it
 * sleeps less and writes more per wake-up (docs/benchmarks.md, the connections sweep). Counted: made
 * for the first client, shut down when the last one is done with it, so closed clients leave no thread.
 */
final class SharedEventLoops {

  /** The shared loops of each transport some client runs on; guarded by the class. */
  private static final Map<IoTransport, EventLoopGroup> groups = new EnumMap<>(IoTransport.class);
  /** Clients holding each transport's loops; guarded by the class. */
  private static final Map<IoTransport, Integer> users = new EnumMap<>(IoTransport.class);

  private SharedEventLoops() {}

  /** The shared loops of {@code transport}, made if no client holds them; each call needs one {@link #release}. */
  static synchronized EventLoopGroup acquire(IoTransport transport) {
    EventLoopGroup group = groups.computeIfAbsent(transport, t -> t.newGroup(0, "triple-client-io"));
    users.merge(transport, 1, Integer::sum);
    return group;
  }

  /** One client is done with {@code loops}: the last to be done shuts them down. */
  static synchronized void release(EventLoopGroup loops) {
    for (Map.Entry<IoTransport, EventLoopGroup> shared : groups.entrySet()) {
      if (shared.getValue() == loops) {
        IoTransport transport = shared.getKey();
        if (users.merge(transport, -1, Integer::sum) == 0) {
          users.remove(transport);
          groups.remove(transport);
          loops.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        }
        return;
      }
    }
    throw new IllegalStateException("Released event loops that are not the shared ones");
  }

  /** Clients holding shared loops now, of every transport. */
  static synchronized int users() {
    return users.values().stream().mapToInt(Integer::intValue).sum();
  }
}
