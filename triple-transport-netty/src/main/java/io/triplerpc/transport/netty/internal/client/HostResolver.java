package io.triplerpc.transport.netty.internal.client;

import io.netty.channel.EventLoop;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns a server's host name into an address with the system's resolver ({@link InetAddress}: hosts
 * file, nsswitch, the JDK's cache), on threads of its own, never on an event loop: a lookup that hangs
 * on a slow DNS server would otherwise stall every connection of that loop. Netty's {@code Bootstrap}
 * resolves on the loop; grpc-java, like this, on an executor. An IP literal is parsed on the spot.
 */
public final class HostResolver {

  /** How the system is asked; a test may make one name hang. */
  @FunctionalInterface
  interface Lookup {
    InetAddress lookup(String host) throws UnknownHostException;
  }

  /** At most this many lookups run at once; another fails its connection attempt (which then backs off). */
  static final int MAX_CONCURRENT_LOOKUPS = 32;

  /** The system's resolver, which every client transport shares. */
  public static final HostResolver SYSTEM = new HostResolver(InetAddress::getByName);

  private final Lookup lookup;
  private final Executor executor;

  HostResolver(Lookup lookup) {
    this.lookup = lookup;
    AtomicInteger threads = new AtomicInteger();
    // Threads only while lookups run: a client that resolves nothing, or is idle, holds none.
    this.executor = new ThreadPoolExecutor(0, MAX_CONCURRENT_LOOKUPS, 10, TimeUnit.SECONDS, new SynchronousQueue<>(),
        runnable -> {
          Thread thread = new Thread(runnable, "triple-resolver-" + threads.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /**
   * {@code address} resolved, completed on {@code loop}: at once for a resolved address or an IP
   * literal, after the system's lookup otherwise. Fails with {@link UnknownHostException} for a name
   * the system does not know.
   */
  public Future<InetSocketAddress> resolve(InetSocketAddress address, EventLoop loop) {
    if (!address.isUnresolved()) {
      return loop.newSucceededFuture(address);
    }
    String host = address.getHostString();
    int port = address.getPort();
    InetAddress literal = NetUtil.createInetAddressFromIpAddressString(host);
    if (literal != null) {
      return loop.newSucceededFuture(new InetSocketAddress(literal, port));
    }
    Promise<InetSocketAddress> resolved = loop.newPromise();
    try {
      executor.execute(() -> {
        try {
          resolved.trySuccess(new InetSocketAddress(lookup.lookup(host), port));
        } catch (UnknownHostException | RuntimeException e) {
          resolved.tryFailure(e);
        }
      });
    } catch (RejectedExecutionException busy) {
      resolved.tryFailure(new UnknownHostException(
          host + ": " + MAX_CONCURRENT_LOOKUPS + " lookups of the client are already waiting for the system's resolver"));
    }
    return resolved;
  }
}
