package io.triplerpc.testing;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-JVM TCP proxy between a client and a server that injects network faults on command: latency,
 * a blackhole, a paused link, reset or closed connections, refused connects. It listens on
 * 127.0.0.1 at a free port and forwards each connection it accepts to the target, byte for byte both
 * ways, until told otherwise.
 *
 * <p>Link faults ({@link #delay}, {@link #drop}, {@link #pause}, {@link #pass}) last until changed and
 * apply at once to the connections open now and to those accepted later, in the directions named.
 * Connection faults ({@link #reset}, {@link #closeAll}) act once on the connections open now;
 * {@link #refuse} lasts until {@link #accept}, for new connections only.
 *
 * <p>Thread-safe: commands may come from any thread and never block; each takes effect on a
 * connection at its next read, or at once where the command says so. Bytes keep their order in each
 * direction whatever the commands. A {@link #delay} runs on the proxy's own scheduler in real time;
 * tests wait for the bytes (a blocking read, a call's result), never sleep, and never assert how long
 * it took. For latency a test controls exactly, {@link #pause} and {@link #pass} hold bytes and release
 * them on command.
 */
public final class FaultProxy implements AutoCloseable {

  /** Which way bytes travel through the proxy. */
  public enum Direction {
    /** From the client that connected to the proxy to the target. */
    UPSTREAM,
    /** From the target back to the client. */
    DOWNSTREAM,
    /** Both ways. */
    BOTH;

    boolean includes(Direction d) {
      return this == BOTH || this == d;
    }
  }

  /** What the link does to bytes travelling one way; immutable, replaced whole by a command. */
  private record Link(long delayNanos, boolean drop, boolean paused) {
    static final Link PASS = new Link(0, false, false);
  }

  private final InetSocketAddress target;
  private final EventLoopGroup group;
  private final Channel listener;
  /** The connections not yet closed on both sides. */
  private final Set<Relay> relays = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong bytesUpstream = new AtomicLong();
  private final AtomicLong bytesDownstream = new AtomicLong();
  private final AtomicLong bytesDropped = new AtomicLong();
  /** Fired when bytes are dropped and when a connection is forgotten: what the await methods wait on. */
  private final Signal changed = new Signal();

  /** Client to target; read by each connection on every read. */
  private volatile Link upstream = Link.PASS;
  /** Target to client. */
  private volatile Link downstream = Link.PASS;
  private volatile boolean refusing;

  private FaultProxy(InetSocketAddress target) {
    this.target = target;
    // One thread: every connection's two sockets, its queues and its timers share it, so a relay's
    // state needs no lock. Daemon, so a test that forgets close() does not hold the JVM.
    this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("fault-proxy", true),
        NioIoHandler.newFactory());
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        // Nothing is read from a client before its upstream connection is up.
        .childOption(ChannelOption.AUTO_READ, false)
        .childOption(ChannelOption.TCP_NODELAY, true)
        // A FIN from one side is passed on as a FIN, after the bytes before it, while the other way
        // keeps flowing; without this Netty would close the whole socket on the first FIN.
        .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            onAccepted(ch);
          }
        });
    try {
      ChannelFuture bound = bootstrap.bind(new InetSocketAddress("127.0.0.1", 0));
      waitFor(bound, "bind");
      this.listener = bound.channel();
    } catch (RuntimeException e) {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      throw e;
    }
  }

  /** Starts a proxy to {@code target} on a free loopback port; every link passes bytes. */
  public static FaultProxy start(InetSocketAddress target) {
    return new FaultProxy(requireNonNull(target, "target"));
  }

  /** The port clients connect to. */
  public int port() {
    return address().getPort();
  }

  /** The address clients connect to, 127.0.0.1 and {@link #port()}. */
  public InetSocketAddress address() {
    return (InetSocketAddress) listener.localAddress();
  }

  /**
   * Holds every byte read from now on for {@code delay} before forwarding it, both ways; {@link
   * Duration#ZERO} removes the delay. Bytes read earlier keep their place: nothing overtakes.
   */
  public FaultProxy delay(Duration delay) {
    return delay(Direction.BOTH, delay);
  }

  /** {@link #delay(Duration)} for one direction (or both); the other keeps its delay. */
  public FaultProxy delay(Direction direction, Duration delay) {
    long nanos = requireNonNull(delay, "delay").toNanos();
    if (nanos < 0) {
      throw new IllegalArgumentException("delay < 0: " + delay);
    }
    return update(direction, l -> new Link(nanos, l.drop, l.paused));
  }

  /**
   * A blackhole, both ways: bytes read are thrown away, connections stay open, and neither side is
   * told. Bytes lost are lost for good, so a stream protocol is out of step after {@link #pass()} (an
   * HTTP/2 connection's header compression, for one); to hold bytes and deliver them later, {@link
   * #pause()}. A close still passes.
   */
  public FaultProxy drop() {
    return drop(Direction.BOTH);
  }

  /** {@link #drop()} for one direction (or both). */
  public FaultProxy drop(Direction direction) {
    return update(direction, l -> new Link(l.delayNanos, true, false));
  }

  /**
   * A partition that heals, both ways: the proxy stops reading, so bytes wait in the sockets' buffers
   * (and the sender blocks once they fill, as over a dead link), and are delivered in order by
   * {@link #pass()}. A close waits behind them.
   */
  public FaultProxy pause() {
    return pause(Direction.BOTH);
  }

  /** {@link #pause()} for one direction (or both). */
  public FaultProxy pause(Direction direction) {
    return update(direction, l -> new Link(l.delayNanos, false, true));
  }

  /**
   * Ends {@link #drop()} and {@link #pause()} both ways: bytes held by a pause go on first, then
   * everything read from now on. Delays stay.
   */
  public FaultProxy pass() {
    return pass(Direction.BOTH);
  }

  /** {@link #pass()} for one direction (or both). */
  public FaultProxy pass(Direction direction) {
    return update(direction, l -> new Link(l.delayNanos, false, false));
  }

  /**
   * Resets every connection open now, both sides, with a TCP RST (SO_LINGER 0): each side's next read
   * or write fails with "connection reset". Bytes still delayed or held are lost.
   *
   * @return how many connections were reset
   */
  public int reset() {
    return endAll(true);
  }

  /**
   * Closes every connection open now, both sides, with a FIN, as a server or middlebox closing
   * cleanly would; bytes still delayed or held are lost. As with any socket, a side whose latest
   * bytes the proxy had not read yet gets a reset instead: the kernel answers unread input so.
   *
   * @return how many connections were closed
   */
  public int closeAll() {
    return endAll(false);
  }

  /**
   * From now on accepts each new connection and resets it at once, without connecting to the target:
   * the client sees its connection reset before any byte arrives. Open connections carry on.
   */
  public FaultProxy refuse() {
    refusing = true;
    return this;
  }

  /** Ends {@link #refuse()}: new connections are forwarded again. */
  public FaultProxy accept() {
    refusing = false;
    return this;
  }

  /** Connections accepted since the start, the refused ones included. */
  public long connectionsAccepted() {
    return accepted.get();
  }

  /** Connections accepted and reset at once by {@link #refuse()}. */
  public long connectionsRefused() {
    return refused.get();
  }

  /** Connections open now (on at least one side). */
  public int openConnections() {
    return relays.size();
  }

  /** Bytes written on to the other side, both ways, since the start; dropped bytes do not count. */
  public long bytesForwarded() {
    return bytesUpstream.get() + bytesDownstream.get();
  }

  /** Bytes thrown away by {@link #drop()}, both ways; see {@link #awaitBytesDropped}. */
  public long bytesDropped() {
    return bytesDropped.get();
  }

  /** Returns once {@link #bytesDropped()} is {@code bytes}: the proxy has read them into the blackhole. */
  public void awaitBytesDropped(long bytes) {
    changed.await(() -> bytesDropped.get() == bytes, "the proxy has dropped " + bytes + " bytes");
  }

  /** Returns once {@link #openConnections()} is {@code count}: the proxy has forgotten the others. */
  public void awaitOpenConnections(int count) {
    changed.await(() -> relays.size() == count, "the proxy has " + count + " connections open");
  }

  /** {@link #bytesForwarded()} in one direction (or both). */
  public long bytesForwarded(Direction direction) {
    return switch (requireNonNull(direction, "direction")) {
      case UPSTREAM -> bytesUpstream.get();
      case DOWNSTREAM -> bytesDownstream.get();
      case BOTH -> bytesForwarded();
    };
  }

  /**
   * Stops listening, closes every connection as {@link #closeAll()} does and stops the proxy's
   * thread; returns once it has stopped, so every buffer the proxy held is released.
   */
  @Override
  public void close() {
    listener.close();
    closeAll();
    // The quiet period is zero: the closes queued above still run before the thread ends.
    waitFor(group.shutdownGracefully(0, 5, TimeUnit.SECONDS), "shut down");
  }

  private interface LinkUpdate {
    Link apply(Link link);
  }

  private FaultProxy update(Direction direction, LinkUpdate change) {
    requireNonNull(direction, "direction");
    // Commands come from any thread; one at a time keeps each read-modify-write whole.
    synchronized (this) {
      if (direction.includes(Direction.UPSTREAM)) {
        upstream = change.apply(upstream);
      }
      if (direction.includes(Direction.DOWNSTREAM)) {
        downstream = change.apply(downstream);
      }
    }
    // A pause must stop reads now and a pass must restart them; the others take effect per read.
    for (Relay relay : relays) {
      relay.client.eventLoop().execute(relay::linksChanged);
    }
    return this;
  }

  private int endAll(boolean rst) {
    List<Relay> open = List.copyOf(relays);
    for (Relay relay : open) {
      relay.client.eventLoop().execute(() -> relay.end(rst));
    }
    return open.size();
  }

  private void onAccepted(SocketChannel client) {
    accepted.incrementAndGet();
    if (refusing) {
      refused.incrementAndGet();
      reset(client);
      return;
    }
    ChannelFuture connect = new Bootstrap()
        .group(client.eventLoop())
        .channel(NioSocketChannel.class)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .handler(new ChannelInboundHandlerAdapter())
        .connect(target);
    Relay relay = new Relay(client, connect.channel());
    relays.add(relay);
    connect.addListener((ChannelFuture connected) -> relay.connected(connected));
  }

  private static void reset(Channel channel) {
    // SO_LINGER 0 makes close() send RST instead of FIN, and drop whatever is still unsent.
    channel.config().setOption(ChannelOption.SO_LINGER, 0);
    channel.close();
  }

  /** Startup and shutdown only: a test fixture's caller wants the proxy ready when this returns. */
  private static void waitFor(Future<?> future, String what) {
    try {
      future.get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted waiting to " + what, e);
    } catch (ExecutionException e) {
      throw new UncheckedIOException(new IOException("Fault proxy could not " + what, e.getCause()));
    } catch (TimeoutException e) {
      throw new IllegalStateException("Fault proxy did not " + what + " within 10 s", e);
    }
  }

  /**
   * One proxied connection: the accepted client socket, the socket to the target, and a {@link Pipe}
   * each way. Touched only on the one event loop both sockets share.
   */
  private final class Relay {
    final Channel client;
    /** The socket to the target, from the start of its connect. */
    final Channel server;
    final Pipe up = new Pipe(Direction.UPSTREAM);
    final Pipe down = new Pipe(Direction.DOWNSTREAM);
    /** Both sockets are connected and the pipes attached; false until then and if the connect failed. */
    boolean linked;

    Relay(Channel client, Channel server) {
      this.client = client;
      this.server = server;
      client.pipeline().addLast(new Side(true));
    }

    void connected(ChannelFuture connected) {
      if (!connected.isSuccess()) {
        // The target refused, is gone, or the relay was ended while connecting: the client learns it
        // the way a refused connect would tell it, unless it has gone already.
        reset(client);
        return;
      }
      if (!client.isActive()) {
        server.close();
        return;
      }
      server.pipeline().addLast(new Side(false));
      up.attach(client, server);
      down.attach(server, client);
      linked = true;
      linksChanged();
    }

    void linksChanged() {
      if (linked) {
        up.linkChanged();
        down.linkChanged();
      }
    }

    void end(boolean rst) {
      // A server socket still connecting is ended too: the target may have accepted it already.
      for (Channel ch : new Channel[] {client, server}) {
        if (rst) {
          reset(ch);
        } else {
          ch.close();
        }
      }
    }

    void inactive(boolean clientSide) {
      if (!linked && clientSide) {
        server.close();
      }
      Pipe from = clientSide ? up : down;
      Pipe into = clientSide ? down : up;
      into.sinkClosed();
      from.sourceClosed();
      if (!client.isActive() && !server.isActive()) {
        relays.remove(this);
        changed.fire();
      }
    }

    /** The handler on one socket; hands everything to the relay. */
    private final class Side extends ChannelInboundHandlerAdapter {
      private final boolean clientSide;

      Side(boolean clientSide) {
        this.clientSide = clientSide;
      }

      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        (clientSide ? up : down).read((ByteBuf) msg);
      }

      @Override
      public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // This socket's backlog changed: the pipe writing into it reads its source again, or stops.
        (clientSide ? down : up).linkChanged();
      }

      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset (or any I/O failure) on one side is passed on as a reset of the other.
        (clientSide ? up : down).sourceReset();
        ctx.close();
      }

      @Override
      public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
          (clientSide ? up : down).sourceClosed();
        }
        ctx.fireUserEventTriggered(evt);
      }

      @Override
      public void channelInactive(ChannelHandlerContext ctx) {
        inactive(clientSide);
      }
    }

    /**
     * Bytes one way: read from {@code source}, queued until their release time (now, or later under a
     * delay), written to {@code sink} in the order read.
     */
    private final class Pipe {
      final Direction direction;
      Channel source;
      Channel sink;
      /** Bytes read and not yet written, oldest first, release times never decreasing. */
      final ArrayDeque<Pending> queue = new ArrayDeque<>();
      /** The release time of the last byte queued: a later one never goes before it. */
      long lastReleaseNanos = Long.MIN_VALUE;
      /** A drain is scheduled for the queue's head. */
      boolean drainScheduled;
      /** The source has closed: the sink is closed once the queue is written. */
      boolean sourceClosed;
      /** The source was reset: the sink is reset rather than closed. */
      boolean sourceReset;
      /** The sink has been sent its FIN (or reset): nothing more goes this way. */
      boolean finished;

      Pipe(Direction direction) {
        this.direction = direction;
      }

      void attach(Channel source, Channel sink) {
        this.source = source;
        this.sink = sink;
      }

      Link link() {
        return direction == Direction.UPSTREAM ? upstream : downstream;
      }

      void read(ByteBuf bytes) {
        Link link = link();
        if (link.drop || sink == null || !sink.isActive()) {
          if (link.drop) {
            bytesDropped.addAndGet(bytes.readableBytes());
            changed.fire();
          }
          bytes.release();
          return;
        }
        long now = System.nanoTime();
        long releaseAt = Math.max(now + link.delayNanos, lastReleaseNanos);
        lastReleaseNanos = releaseAt;
        queue.add(new Pending(bytes, releaseAt));
        drain();
      }

      /** Applies the current link: reads on or off, held bytes written once no longer paused. */
      void linkChanged() {
        if (source == null) {
          return;
        }
        Link link = link();
        source.config().setAutoRead(!link.paused && sink.isWritable());
        drain();
      }

      void drain() {
        if (link().paused || sink == null) {
          return;
        }
        long now = System.nanoTime();
        boolean wrote = false;
        Pending head;
        while ((head = queue.peek()) != null && head.releaseAt - now <= 0) {
          queue.poll();
          (direction == Direction.UPSTREAM ? bytesUpstream : bytesDownstream).addAndGet(head.bytes.readableBytes());
          sink.write(head.bytes);
          wrote = true;
        }
        if (wrote) {
          sink.flush();
          if (!sink.isWritable()) {
            source.config().setAutoRead(false);
          }
        }
        if (head != null) {
          if (!drainScheduled) {
            drainScheduled = true;
            sink.eventLoop().schedule(() -> {
              drainScheduled = false;
              drain();
            }, head.releaseAt - now, TimeUnit.NANOSECONDS);
          }
        } else if (sourceClosed && !finished) {
          finished = true;
          if (sourceReset) {
            reset(sink);
          } else {
            // Written bytes first, then the FIN; once both ways are finished nothing is left to relay.
            sink.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
              ((DuplexChannel) sink).shutdownOutput();
              if (up.finished && down.finished) {
                client.close();
                server.close();
              }
            });
          }
        }
      }

      void sourceReset() {
        sourceReset = true;
      }

      void sourceClosed() {
        sourceClosed = true;
        if (sourceReset) {
          // A reset loses what was in flight, as it would on the wire.
          releaseQueue();
        }
        drain();
      }

      void sinkClosed() {
        releaseQueue();
        if (source != null) {
          source.close();
        }
      }

      void releaseQueue() {
        Pending p;
        while ((p = queue.poll()) != null) {
          p.bytes.release();
        }
      }
    }
  }

  private record Pending(ByteBuf bytes, long releaseAt) {}
}
