package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.TripleServer;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.transport.netty.EchoService;
import io.triplerpc.transport.netty.EchoServiceImpl;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Server names are resolved off the event loops: while the system's resolver hangs on one name, calls on
 * other connections of the same loop go on, and once the resolver answers, the hung name's connection is
 * made and its call completes. An IP literal is never looked up; an unknown name fails the call naming it.
 */
class HostResolutionTest {

  private static final String HUNG = "hung.resolver.test";
  private static final String ALIAS = "alias.resolver.test";

  /** What the resolver was asked. */
  private final Set<String> lookedUp = ConcurrentHashMap.newKeySet();
  private final CountDownLatch answer = new CountDownLatch(1);
  private final CountDownLatch hungLookupStarted = new CountDownLatch(1);
  private final NettyClientTransportFactory factory = new NettyClientTransportFactory(new HostResolver(host -> {
    lookedUp.add(host);
    if (HUNG.equals(host)) {
      hungLookupStarted.countDown();
      // The system resolver stuck on an unreachable DNS server, until the test lets it answer.
      try {
        answer.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UnknownHostException(host + ": interrupted");
      }
      return InetAddress.getLoopbackAddress();
    }
    if (ALIAS.equals(host)) {
      return InetAddress.getLoopbackAddress();
    }
    throw new UnknownHostException(host + ": not known to the test's resolver");
  }));
  private TripleServer server;

  @BeforeEach
  void start() throws Exception {
    server = TripleServer.builder().port(0).host("127.0.0.1").addService(EchoService.class, new EchoServiceImpl())
        .build().start();
  }

  @AfterEach
  void stop() throws Exception {
    answer.countDown();
    factory.close();
    server.shutdownNow();
  }

  /** One event loop for every connection, so that a loop blocked by a lookup would stall them all. */
  private ClientTransport transport(String host) {
    ClientTransportOptions d = ClientTransportOptions.DEFAULTS;
    return factory.newTransport(InetSocketAddress.createUnresolved(host, server.port()),
        new ClientTransportOptions(d.limits(), d.keepAlive(), 1, d.connectTimeoutMillis(), d.initialBackoffMillis(),
            d.maxBackoffMillis(), 1, null, ClientProtocol.GRPC));
  }

  @Test
  void aHungLookupStallsNoOtherConnectionOfItsLoop() throws Exception {
    ClientTransport hung = transport(HUNG);
    ClientTransport literal = transport("127.0.0.1");
    ClientTransport alias = transport(ALIAS);
    assertSame(hung.scheduler(), literal.scheduler(), "one event loop for all");

    CompletableFuture<Status> hungCall = call(hung, 0);
    assertTrue(hungLookupStarted.await(10, TimeUnit.SECONDS), "the hung name's lookup began");
    assertTrue(((EventLoop) hung.scheduler()).submit(() -> { }).await(10, TimeUnit.SECONDS), "the loop runs tasks");

    // Meanwhile calls through the same loop, to an IP literal and to a name that resolves, complete.
    assertEquals(Status.Code.OK, call(literal, 0).get(10, TimeUnit.SECONDS).code());
    assertEquals(Status.Code.OK, call(alias, 0).get(10, TimeUnit.SECONDS).code());
    assertFalse(hungCall.isDone(), "the hung name's call waits for its connection");
    assertFalse(lookedUp.contains("127.0.0.1"), "an IP literal is parsed, never looked up");

    // Once the resolver answers, that connection is made and its call completes.
    answer.countDown();
    assertEquals(Status.Code.OK, hungCall.get(10, TimeUnit.SECONDS).code());
  }

  @Test
  void anUnknownNameFailsTheCallWithUnavailableNamingIt() throws Exception {
    Status status = call(transport("nowhere.resolver.test"), 0).get(10, TimeUnit.SECONDS);
    assertEquals(Status.Code.UNAVAILABLE, status.code());
    assertTrue(status.description().contains("nowhere.resolver.test"), status.description());
  }

  /** An empty echo call on {@code transport}; completes with its status. */
  private static CompletableFuture<Status> call(ClientTransport transport, long timeoutNanos) {
    CompletableFuture<Status> closed = new CompletableFuture<>();
    ClientStream stream = transport.newStream(ECHO, new Metadata(), timeoutNanos, null);
    stream.start(EmbeddedClientConnection.releasingListener(closed::complete), true);
    stream.request(1);
    // An empty EchoRequest: a gRPC message prefix with length 0.
    stream.writeMessage(Unpooled.wrappedBuffer(new byte[5]), true);
    return closed;
  }

  /** EchoService's unary {@code echo}, as a client of the service describes it. */
  private static final MethodDescriptor<Object, Object> ECHO = ServiceDescriptor.of(EchoService.class).methods().stream()
      .map(MethodBinding::descriptor).filter(method -> method.methodName().equals("echo")).findFirst().orElseThrow();
}
