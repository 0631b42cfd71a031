package io.triplerpc.micrometer;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.micrometer.testing.Ping;
import io.triplerpc.micrometer.testing.Pong;

/** A method of each call type, for the metrics tests. */
@TripleService(name = "triple.metrics.test.PingService")
public interface PingService {

  Pong ping(Ping request);

  void pings(Ping request, StreamObserver<Pong> replies);

  @TripleMethod(clientStreaming = true)
  StreamObserver<Ping> collect(StreamObserver<Pong> reply);

  StreamObserver<Ping> chat(StreamObserver<Pong> replies);
}
