package io.triplerpc.testing;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DNS server over UDP on loopback for tests of clients that resolve names: it answers A and AAAA
 * queries from the records a test sets (and changes while it runs), NXDOMAIN for names it does not
 * know, and an empty answer for a name set to no address. Each query it answers fires
 * {@link #queried()}, so a test awaits a client's re-resolution instead of sleeping. A name can be
 * {@linkplain #hold held}: its queries wait unanswered, as at an unreachable DNS server, until
 * {@linkplain #release released}. Close it when done.
 */
public final class TestDnsServer implements AutoCloseable {

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel channel;
  /** Lower-case name without the trailing dot → its addresses. */
  private final Map<String, List<InetAddress>> records = new ConcurrentHashMap<>();
  private final AtomicInteger queries = new AtomicInteger();
  private final Signal queried = new Signal();
  /** Lower-case names whose queries wait → the queries waiting; touched only on the server's event loop. */
  private final Map<String, List<DatagramDnsQuery>> held = new ConcurrentHashMap<>();
  private final AtomicInteger heldQueries = new AtomicInteger();
  private final Signal heldSignal = new Signal();
  private volatile long ttlSeconds = 1;

  private TestDnsServer() throws Exception {
    ChannelFuture bound = new Bootstrap().group(group).channel(NioDatagramChannel.class)
        .handler(new ChannelInitializer<DatagramChannel>() {
          @Override
          protected void initChannel(DatagramChannel ch) {
            ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(), new Answerer());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0));
    bound.get(10, TimeUnit.SECONDS);
    channel = bound.channel();
  }

  /** A server on a free UDP port of 127.0.0.1, knowing no name yet. */
  public static TestDnsServer start() throws Exception {
    return new TestDnsServer();
  }

  /** Where clients send their queries. */
  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  /** Answers {@code name} with {@code addresses} from now on; none makes an empty answer (NOERROR, no records). */
  public TestDnsServer set(String name, InetAddress... addresses) {
    records.put(key(name), List.of(addresses));
    return this;
  }

  /** Answers {@code name} with NXDOMAIN from now on. */
  public TestDnsServer remove(String name) {
    records.remove(key(name));
    return this;
  }

  /** The TTL of the records answered from now on, in seconds; 1 by default. */
  public TestDnsServer ttlSeconds(long seconds) {
    this.ttlSeconds = seconds;
    return this;
  }

  /**
   * Leaves the queries for {@code name} unanswered from now on, as a DNS server that does not reply:
   * a client's lookup of it hangs until {@link #release} (or its own timeout).
   */
  public TestDnsServer hold(String name) {
    String key = key(name);
    onLoop(() -> held.putIfAbsent(key, new ArrayList<>()));
    return this;
  }

  /** Answers the held queries for {@code name} with its records now, and the next ones at once. */
  public TestDnsServer release(String name) {
    String key = key(name);
    onLoop(() -> {
      List<DatagramDnsQuery> waiting = held.remove(key);
      if (waiting != null) {
        for (DatagramDnsQuery query : waiting) {
          answer(query);
          query.release();
        }
        channel.flush();
        answered(waiting.size());
      }
    });
    return this;
  }

  /** Runs {@code task} on the server's event loop, which owns the held queries, and waits for it. */
  private void onLoop(Runnable task) {
    try {
      channel.eventLoop().submit(task).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("The test DNS server's event loop did not run a task", e);
    }
  }

  /** How many queries were held so far (answered later or not). */
  public int heldQueries() {
    return heldQueries.get();
  }

  /** Fires when a query is held. */
  public Signal held() {
    return heldSignal;
  }

  /** How many queries were answered so far. */
  public int queries() {
    return queries.get();
  }

  /** Fires after each answered query. */
  public Signal queried() {
    return queried;
  }

  @Override
  public void close() {
    try {
      onLoop(() -> {
        held.values().forEach(waiting -> waiting.forEach(DatagramDnsQuery::release));
        held.clear();
      });
      channel.close().get(10, TimeUnit.SECONDS);
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("The test DNS server did not close", e);
    }
  }

  private static String key(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
  }

  private final class Answerer extends SimpleChannelInboundHandler<DatagramDnsQuery> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
      DnsQuestion question = query.recordAt(DnsSection.QUESTION);
      List<DatagramDnsQuery> waiting = question == null ? null : held.get(key(question.name()));
      if (waiting != null) {
        waiting.add(query.retain());
        heldQueries.incrementAndGet();
        heldSignal.fire();
        return;
      }
      answer(query);
      ctx.flush();
      answered(1);
    }
  }

  /** Writes the answer to {@code query}, unflushed; on the server's event loop. */
  private void answer(DatagramDnsQuery query) {
    DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
    response.setRecursionDesired(query.isRecursionDesired()).setRecursionAvailable(true);
    DnsQuestion question = query.recordAt(DnsSection.QUESTION);
    if (question != null) {
      response.addRecord(DnsSection.QUESTION, question);
      List<InetAddress> addresses = records.get(key(question.name()));
      if (addresses == null) {
        response.setCode(DnsResponseCode.NXDOMAIN);
      } else {
        for (InetAddress address : addresses) {
          boolean v4 = address instanceof Inet4Address;
          if ((question.type() == DnsRecordType.A && v4)
              || (question.type() == DnsRecordType.AAAA && address instanceof Inet6Address)) {
            response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), question.type(),
                ttlSeconds, Unpooled.wrappedBuffer(address.getAddress())));
          }
        }
      }
    } else {
      response.setCode(DnsResponseCode.FORMERR);
    }
    channel.write(response);
  }

  /** Counts {@code answered} queries, after their answers were flushed. */
  private void answered(int answered) {
    queries.addAndGet(answered);
    queried.fire();
  }
}
