package io.triplerpc.internal.stream;

/** What core gives a server transport: a place to hand each new stream. */
public interface ServerTransportListener {

  /**
   * A client opened a stream with valid gRPC headers. Called on the event loop; must not block. Returns
   * the listener for the stream's events (never null; for an unknown method, the implementation
   * closes the stream and returns a listener that ignores them).
   */
  ServerStreamListener streamCreated(ServerStream stream, InboundRequest request);
}
