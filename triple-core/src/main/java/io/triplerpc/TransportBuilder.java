package io.triplerpc;

import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * What a {@link TripleClient.Builder} and a {@link TripleServer.Builder} set alike: the limits of each
 * connection, its keepalive, TLS, threads, observers and what plain Java messages may hold. Where a
 * default differs between the two sides, each is named. "The peer" is the server of a client and the
 * client of a server.
 *
 * @param <B> the builder, returned by each setter for chaining
 */
public interface TransportBuilder<B extends TransportBuilder<B>> {

  /** Largest message accepted from the peer; 4 MiB by default. A larger one fails the call with RESOURCE_EXHAUSTED. */
  B maxInboundMessageSize(int bytes);

  /** Largest header block accepted from the peer; 8 KiB by default. */
  B maxHeaderListSize(int bytes);

  /**
   * The HTTP/2 flow-control window each stream and the connection start with; 1 MiB by default. It
   * grows up to {@link #maxWindowSize} as the connection's bandwidth-delay product asks.
   */
  B initialWindowSize(int bytes);

  /**
   * The largest the flow-control windows grow to: to twice the bytes the peer sends in one round trip,
   * measured with PINGs, as grpc-java and grpc-go do; 8 MiB by default. At most
   * {@link #initialWindowSize} for windows that never grow. Each connection may hold this many bytes
   * its calls have not read.
   */
  B maxWindowSize(int bytes);

  /**
   * HTTP/2 control frames (PING and SETTINGS acknowledgements, RST_STREAM) a connection may hold that
   * its socket has not taken yet, as for a peer that sends PINGs and never reads (CVE-2019-9512,
   * CVE-2019-9515); past it, the connection closes and its calls fail. 10,000 by default, as Netty's
   * HTTP/2 builder, grpc-java's server and Go; 0 for no limit.
   *
   * @throws IllegalArgumentException if negative
   */
  B maxQueuedControlFrames(int frames);

  /**
   * RST_STREAM frames a connection may send per {@code window} (a client's own cancellations count),
   * and on a client receive: past it, GOAWAY ENHANCE_YOUR_CALM and the connection closes. A server
   * allows 200 per 30 s by default, as Netty's HTTP/2 builder, against peers that make it reset streams
   * (MadeYouReset, CVE-2025-55163); a server's client that resets more than half of its streams within
   * a second of opening them (rapid reset, CVE-2023-44487), judged from its 500th stream on, loses the
   * connection the same way, as with Envoy, so that calls that time out under load or hedging's losers
   * never cost one. A client sets no limit by default, as Netty's builder for clients: a server can
   * reset only the streams the client opened. 0 frames for no limit.
   *
   * @param window whole seconds, at least 1
   * @throws IllegalArgumentException if {@code frames} is negative or {@code window} out of range
   */
  B maxRstFramesPerWindow(int frames, Duration window);

  /**
   * Empty DATA frames without END_STREAM the peer may send in a row, which no valid peer does and which
   * cost a read each; one more than the limit gets GOAWAY ENHANCE_YOUR_CALM and the connection closes
   * (its calls fail with UNAVAILABLE). 2 by default, as Netty's HTTP/2 builder; 0 for no limit.
   *
   * @throws IllegalArgumentException if negative
   */
  B maxConsecutiveEmptyDataFrames(int frames);

  /**
   * Bytes a connection may hold that its peer has not taken: messages waiting for the peer's
   * flow-control window, or for a socket the peer does not drain. Past the limit, the call whose message
   * is being written is reset (RST_STREAM ENHANCE_YOUR_CALM; it fails with RESOURCE_EXHAUSTED), and if
   * the limit is reached again before the peer has opened its connection window, the connection goes
   * away (GOAWAY ENHANCE_YOUR_CALM). 64 MiB by default; 0 for no limit. grpc-java and Netty set no
   * such limit; a streaming call that honours {@code isReady()} never comes near it.
   *
   * @throws IllegalArgumentException if negative
   */
  B maxPendingOutboundBytes(long bytes);

  /**
   * Sends a PING when nothing has been read from a connection for {@code time}, and closes the
   * connection if the peer then stays silent for {@link #keepAliveTimeout}, so that a connection a NAT
   * or load balancer dropped without a word, or a peer that vanished, is found. A server pings after 2
   * hours by default, as grpc-java; a client not at all, as grpc-java. Servers refuse pings more
   * frequent than they permit ({@link TripleServer.Builder#permitKeepAliveTime}, 5 minutes by default)
   * with GOAWAY ENHANCE_YOUR_CALM "too_many_pings"; a client then doubles this time for its new
   * connections. {@code ChronoUnit.FOREVER.getDuration()} turns keepalive off.
   *
   * @throws IllegalArgumentException if not positive
   */
  B keepAliveTime(Duration time);

  /**
   * How long a keepalive PING may go without anything read from the peer before the connection is
   * taken for dead: it closes and its calls fail with UNAVAILABLE. 20 s by default, as in grpc-java.
   *
   * @throws IllegalArgumentException if not positive
   */
  B keepAliveTimeout(Duration timeout);

  /**
   * Event loop threads of this client's or server's own. 0, the default, means one per core: a server's
   * own, and for clients the process's client event loops, shared by every client that does not ask for
   * its own (they end when the last such client closes).
   *
   * @throws IllegalArgumentException if negative
   */
  B ioThreads(int threads);

  /**
   * The I/O of this client's or server's event loops. Not set, it is what {@code -Dio.triplerpc.transport}
   * names for the whole JVM ({@code auto}, {@code io_uring}, {@code epoll} or {@code nio}), or without
   * that property epoll where available, then NIO. {@link Transport#AUTO} prefers io_uring, then epoll,
   * then NIO. A client that shares the process's event loops ({@link #ioThreads} 0) shares those of its
   * transport.
   *
   * <p>Asking for a transport the machine cannot run fails the client's {@code build()} or the server's
   * {@code start()} with an {@link IllegalStateException} that gives Netty's reason.
   */
  B transport(Transport transport);

  /**
   * TLS (ALPN {@code h2}, and {@code http/1.1} on a server for curl and browsers). A client verifies
   * the server's certificate against {@link TlsConfig#trustCertificates()} (the JDK's trust store when
   * not set) and its host name, and presents a {@link TlsConfig#certificateChain()} for mutual TLS. A
   * server serves TLS only with {@code tls}'s certificate: a connection that does not start with a TLS
   * handshake is closed before any of its requests reaches a service, unless
   * {@link TripleServer.Builder#plaintextAlongsideTls} opts in.
   *
   * @throws IllegalArgumentException on a server, if {@code tls} has neither a certificate nor an SSLContext
   */
  B tls(TlsConfig tls);

  /**
   * HTTP/3 (QUIC, RFC 9114), which needs {@link #tls} from PEM files (QUIC is TLS 1.3 only) and
   * {@code io.triplerpc:triple-transport-http3} on the class path; off by default. A server serves it
   * beside TCP, on the UDP port of the TCP port's number ({@code TripleServer.Builder.http3(int)} for
   * another), the same services, limits and protocols, and advertises it with {@code Alt-Svc}. A client
   * calls over it, in its chosen protocol (gRPC, gRPC-Web or Connect), without falling back to HTTP/2
   * ({@code TripleClient.Builder.http3(Duration)} falls back). The server's certificate is checked
   * against {@link TlsConfig#trustCertificates()} (the JDK's trusted CAs when not set) and its host
   * name; a {@link TlsConfig#certificateChain()} is the client's certificate. The build fails, naming
   * what is missing, without TLS from PEM files or without the module, and on a client with HTTP/1.1.
   */
  B http3();

  /**
   * Where the application's code of each call runs, each call's events in order, one at a time: a
   * server's service methods, a client's callbacks of asynchronous and streaming calls (a synchronous
   * unary call runs its own on the calling thread), as grpc-java's {@code executor}. By default a pool of
   * daemon threads of the client's or server's own: while calls keep finishing, one fewer than there are
   * cores run (at least one), taking queued work without a thread wake-up each; one that blocks for more
   * than a millisecond is replaced by a new thread, so blocking code, even code that calls the same
   * server and waits, never holds up the calls behind it. Its threads end when idle.
   */
  B executor(Executor executor);

  /**
   * Runs the application's code of each call (as {@link #executor} says) on a virtual thread of its
   * own: a server's service methods, a client's callbacks. For code that blocks, on a call to another
   * server, a database or a lock: a blocked call holds no platform thread, so thousands may wait at once
   * on a few carrier threads. Triple's own blocking calls (a synchronous unary call, a future's
   * {@code get}) park the virtual thread without pinning its carrier. The threads are named
   * {@code triple-service} on a server and {@code triple-callback} on a client, and are daemon threads:
   * the executor owns no thread and there is nothing to shut down. Replaces an executor set before.
   *
   * @throws UnsupportedOperationException on Java before 21, whose virtual threads are missing or a preview
   */
  B virtualThreads();

  /**
   * Adds an observer of every call (and on a client, of every attempt): its method, peer, protocol,
   * status, duration and message sizes, served, refused or failed (for metrics and access logs). None
   * by default, and then no cost.
   */
  B callObserver(CallObserver observer);

  /**
   * Lets the messages of plain Java (hessian2, fastjson2, jackson) services that come from the peer hold
   * values of these classes too: exact class names, or package prefixes ending with a dot. By default a
   * message may hold only classes its service's signatures reach and a few JDK value types; see
   * {@link io.triplerpc.serialization.object.AllowedClasses}. Adds to what
   * {@code META-INF/triple/serialize.allowlist} and {@code -Dtriple.serialization.allow} allow. Applies to
   * every service and proxy of what is built next; what is built keeps the list as it was then.
   *
   * @throws IllegalArgumentException if an entry is not a class name or a prefix of two or more levels
   */
  B allowDeserialization(String... classNamesOrPackagePrefixes);
}
