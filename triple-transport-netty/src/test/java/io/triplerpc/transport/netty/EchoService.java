package io.triplerpc.transport.netty;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.concurrent.CompletableFuture;

@TripleService(name = "triple.test.EchoService")
public interface EchoService {

  // Two wire methods, whose implementations differ: a test of each form on the server (names that differ
  // keep the pair apart).
  @TripleMethod(name = "echo")
  EchoResponse echo(EchoRequest request);

  @TripleMethod(name = "echoAsync")
  CompletableFuture<EchoResponse> echoAsync(EchoRequest request);

  void serverStream(EchoRequest request, StreamObserver<EchoResponse> responses);

  @TripleMethod(clientStreaming = true)
  StreamObserver<EchoRequest> clientStream(StreamObserver<EchoResponse> response);

  StreamObserver<EchoRequest> bidi(StreamObserver<EchoResponse> responses);
}
