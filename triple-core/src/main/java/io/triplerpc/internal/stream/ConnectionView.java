package io.triplerpc.internal.stream;

/**
 * One open server connection as the admin endpoint shows it, read on the connection's event loop at the moment
 * it was asked for (never kept up to date).
 *
 * @param peer the client's address, such as {@code 127.0.0.1:51234}
 * @param protocol {@code HTTP/2}, {@code HTTP/1.1}, {@code HTTP/3}, or {@code undetected} before the first request
 * @param tls whether the connection is TLS
 * @param openedAtMillis when the connection was accepted, in milliseconds since the epoch; 0 when not noted
 *     (as bytes, only a server with an admin endpoint notes it)
 * @param streams requests in flight now (HTTP/2 streams open; 0 or 1 over HTTP/1.1)
 * @param streamsByProtocol of an HTTP/2 connection's streams, how many each call protocol has ({@code grpc},
 *     {@code grpc-web}, {@code connect}...); empty for others
 * @param bytesIn bytes read from the socket since it opened (TLS records included), or -1 when not counted (a
 *     server without an admin endpoint does not count them)
 * @param bytesOut bytes written to the socket since it opened, or -1 when not counted
 * @param flowControl the HTTP/2 connection's flow-control windows, or null for other protocols
 * @param keepAlive the state of the server's keepalive PINGs on it, or null when keepalive is off
 * @param idleMillis how long the connection has had no request in flight, or 0 while it has one
 */
public record ConnectionView(
    String peer,
    String protocol,
    boolean tls,
    long openedAtMillis,
    int streams,
    java.util.Map<String, Integer> streamsByProtocol,
    long bytesIn,
    long bytesOut,
    FlowControl flowControl,
    KeepAliveState keepAlive,
    long idleMillis) {

  public ConnectionView {
    streamsByProtocol = java.util.Map.copyOf(streamsByProtocol);
  }

  /**
   * An HTTP/2 connection's windows, in bytes.
   *
   * @param inbound what the client may still send before the server's next WINDOW_UPDATE (the local window)
   * @param outbound what the server may still send before the client's next WINDOW_UPDATE (the remote window)
   */
  public record FlowControl(int inbound, int outbound) {}

  /**
   * The server's keepalive on one connection.
   *
   * @param pingsSent keepalive PINGs sent so far
   * @param awaitingAck whether the last PING is unanswered (nothing read since it was sent)
   * @param sinceLastPingMillis how long ago the last PING went out, or -1 if none did
   * @param sinceLastReadMillis how long ago the connection last read anything
   */
  public record KeepAliveState(long pingsSent, boolean awaitingAck, long sinceLastPingMillis,
      long sinceLastReadMillis) {}
}
