package io.triplerpc.internal.stream;

import io.triplerpc.WriteStats;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A server's TCP transport (HTTP/2, HTTP/1.1) and its HTTP/3 one on UDP, as one: its address is the TCP
 * one's, its connections both's, and each shutdown reaches both. Thread-safe.
 */
public final class TcpAndHttp3Transport implements ServerTransport {

  private final ServerTransport tcp;
  private final ServerTransport http3;

  public TcpAndHttp3Transport(ServerTransport tcp, ServerTransport http3) {
    this.tcp = tcp;
    this.http3 = http3;
  }

  @Override
  public InetSocketAddress localAddress() {
    return tcp.localAddress();
  }

  @Override
  public int openConnections() {
    return tcp.openConnections() + http3.openConnections();
  }

  /** The TCP transport's: HTTP/3 streams write to their QUIC channels directly, through no write queue. */
  @Override
  public List<CompletableFuture<ConnectionView>> describeConnections() {
    List<CompletableFuture<ConnectionView>> all = new ArrayList<>(tcp.describeConnections());
    all.addAll(http3.describeConnections());
    return all;
  }

  @Override
  public WriteStats writeStats() {
    return tcp.writeStats();
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    tcp.onConnectionsChanged(listener);
    http3.onConnectionsChanged(listener);
  }

  @Override
  public CompletableFuture<Void> writesSettled() {
    return CompletableFuture.allOf(tcp.writesSettled(), http3.writesSettled());
  }

  @Override
  public void shutdown() {
    tcp.shutdown();
    http3.shutdown();
  }

  @Override
  public void shutdownNow() {
    tcp.shutdownNow();
    http3.shutdownNow();
  }

  @Override
  public CompletableFuture<Void> terminationFuture() {
    return CompletableFuture.allOf(tcp.terminationFuture(), http3.terminationFuture());
  }
}
