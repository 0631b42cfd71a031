package io.triplerpc.internal.stream;

import io.triplerpc.internal.rest.RestRoutes;

/** What core gives a server transport: a place to hand each new stream, and the server's plain HTTP endpoints. */
public interface ServerTransportListener {

  /**
   * A client opened a stream with valid gRPC headers. Called on the event loop; must not block. Returns
   * the listener for the stream's events (never null; for an unknown method, the implementation
   * closes the stream and returns a listener that ignores them).
   */
  ServerStreamListener streamCreated(ServerStream stream, InboundRequest request);

  /**
   * Whether each connection should count the bytes it reads and writes, for
   * {@link ServerTransport#describeConnections()}: a server with an admin endpoint does; others pay nothing for
   * it. Asked once per connection, on its event loop. No by default.
   */
  default boolean countsTraffic() {
    return false;
  }

  /**
   * The plain HTTP endpoint that serves {@code target} (a request's path, and its query as it came), or
   * null when none does. The transport asks for each HTTP request that is not gRPC's, before it routes
   * the request to a call; an endpoint takes the request whatever its method. Called on the event loop;
   * must not block. None by default.
   */
  default HttpEndpoint httpEndpoint(CharSequence target) {
    return null;
  }

  /**
   * What a REST request ({@code google.api.http}) of {@code httpMethod} to {@code target} (its path and
   * query, as they came) with the request headers {@code header} gives (by lower-case name, null when absent)
   * finds, or null when no REST route serves its path. The transport asks for each HTTP request that is not
   * gRPC's, after the plain endpoints. Called on the event loop; must not block.
   *
   * @throws IllegalArgumentException if the path holds a malformed percent-escape
   */
  default RestRoutes.Result restRoute(CharSequence httpMethod, CharSequence target,
      java.util.function.Function<String, CharSequence> header) {
    return null;
  }
}
