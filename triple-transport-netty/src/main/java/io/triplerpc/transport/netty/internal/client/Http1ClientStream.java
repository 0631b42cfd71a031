package io.triplerpc.transport.netty.internal.client;

import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.Metadata;
import io.triplerpc.MethodType;
import io.triplerpc.Status;

/**
 * The client side of one call as one HTTP/1.1 exchange, on a connection that carries nothing else
 * until it ends: what HTTP/1.1 adds to {@link AbstractClientStream}'s lifecycle. The request goes as
 * a head and a body (its length known for a one-message request, chunked for a stream), the response
 * is read as HTTP/2's would be ({@link Http1ClientHandler} turns it into a head, DATA and trailers), so
 * the framings are the same. Cancelling closes the connection: HTTP/1.1 has no other way to end an
 * exchange.
 */
final class Http1ClientStream extends AbstractClientStream {

  private final Http1ClientConnection connection;
  /** Whether the request is one message: its length goes in the head, sent with it. */
  private final boolean oneRequestMessage;
  private final Http1State state = new Http1State();

  Http1ClientStream(Http1ClientConnection connection, Http2Headers headers, int maxInboundMessageSize,
      ClientFraming framing, MethodType type) {
    super(connection.writeQueue(), connection.eventLoop(), headers, maxInboundMessageSize, framing);
    this.connection = connection;
    this.oneRequestMessage = type.clientSendsOneMessage();
  }

  @Override
  protected Http1State state() {
    return state;
  }

  Http1ClientConnection connection() {
    return connection;
  }

  boolean oneRequestMessage() {
    return oneRequestMessage;
  }

  // StreamHandle: event loop.

  /** 1 once the exchange started on its connection (HTTP/1.1 has no stream ids), else -1. */
  @Override
  public int id() {
    return state.deframer != null ? 1 : -1;
  }

  @Override
  public void headersWritten() {
    state.headWritten = true;
  }

  @Override
  public void writeFailed(Throwable cause) {
    Status status = Status.UNAVAILABLE.withDescription("Connection failed: " + cause).withCause(cause);
    if (!state.headWritten || connection.handler().staleConnection(this)) {
      // Nothing of the request left whole, or it went out on a connection the server had closed: the
      // server did not process it.
      state.closeUnprocessed(status);
    } else {
      state.close(status, new Metadata());
    }
    connection.close();
  }

  @Override
  public void neverSent(Throwable cause) {
    state.closeUnprocessed(Status.UNAVAILABLE
        .withDescription("Connection failed before the call was sent: " + cause).withCause(cause));
  }

  /** The HTTP/1.1 side of the response; touched on the event loop only. */
  final class Http1State extends State {

    /** Whether the request head was written to the socket whole. */
    private boolean headWritten;

    @Override
    protected void returnBytes(int bytes) {
      connection.handler().returned(bytes);
    }

    @Override
    protected void flushReturned() {
      connection.handler().resumeIfDrained();
    }

    /** Whether any of the response arrived. */
    boolean responseStarted() {
      return headersReceived;
    }
  }
}
