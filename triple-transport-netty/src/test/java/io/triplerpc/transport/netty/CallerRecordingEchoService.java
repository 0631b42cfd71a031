package io.triplerpc.transport.netty;

import io.triplerpc.PeerInfo;
import io.triplerpc.ServerContext;
import io.triplerpc.StreamObserver;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.SocketAddress;
import java.security.Principal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The echo service, recording who made each call that reached it (echo, echoAsync and bidi). */
class CallerRecordingEchoService extends EchoServiceImpl {

  /** Calls that reached the service. */
  final AtomicInteger callsServed = new AtomicInteger();
  /** The principal of the last call, as the server's access policy established it. */
  final AtomicReference<Principal> principal = new AtomicReference<>();
  /** The connection of the last call. */
  final AtomicReference<PeerInfo> peer = new AtomicReference<>();
  /** The remote address the last call's context gave. */
  final AtomicReference<SocketAddress> remoteAddress = new AtomicReference<>();

  private void record() {
    ServerContext call = ServerContext.current();
    callsServed.incrementAndGet();
    principal.set(call.principal());
    peer.set(call.peer());
    remoteAddress.set(call.remoteAddress());
  }

  @Override
  public EchoResponse echo(EchoRequest request) {
    record();
    return super.echo(request);
  }

  @Override
  public CompletableFuture<EchoResponse> echoAsync(EchoRequest request) {
    record();
    return CompletableFuture.completedFuture(super.echo(request));
  }

  @Override
  public StreamObserver<EchoRequest> bidi(StreamObserver<EchoResponse> responses) {
    record();
    return super.bidi(responses);
  }
}
