package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.HttpUnary;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The server side of one HTTP unary call (a whole request body in, one response out), over HTTP/1.1
 * or on an HTTP/2 stream. Core drives it as it drives a gRPC stream; the difference is the answer:
 * the message unframed with an HTTP 200, or an error as an HTTP status and a JSON body.
 *
 * <p>The service thread calls {@link #writeHeaders}, {@link #writeMessage} and {@link #close}; the
 * response is written by a task on the event loop, which owns everything after that.
 */
final class HttpUnaryServerStream implements ServerStream {

  private final EventLoop eventLoop;
  private final ByteBufAllocator alloc;
  private final PeerInfo peer;
  private final HttpResponseWriter writer;
  private final CharSequence contentType;

  // The sending thread's: what waits for the close.
  private Metadata responseHeaders;
  private ByteBuf message;

  // The event loop's.
  private ServerStreamListener listener;
  /** Whether the response went out or the exchange was lost: nothing more is written. */
  private boolean ended;

  HttpUnaryServerStream(Channel channel, PeerInfo peer, HttpResponseWriter writer, String subtype) {
    this.eventLoop = channel.eventLoop();
    this.alloc = channel.alloc();
    this.peer = peer;
    this.writer = writer;
    this.contentType = HttpUnary.contentTypeOf(subtype);
  }

  /** Hands the whole request body to core's listener, then the half-close. Event loop. */
  void start(ServerStreamListener listener, ByteBuf body) {
    this.listener = listener;
    listener.onMessage(body, false);
    listener.onHalfClose();
  }

  /** The connection or the HTTP/2 stream went away before the response. Event loop. */
  void lost(Status status) {
    if (ended) {
      return;
    }
    ended = true;
    listener.onCancel(status);
  }

  @Override
  public void request(int count) {
    // The one request message is there from the start.
  }

  @Override
  public void writeHeaders(Metadata headers, MessageEncoding responseEncoding, boolean flush) {
    responseHeaders = headers;
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean flush) {
    if (message != null) {
      // A unary response has one message; core never sends two.
      message.release();
    }
    message = framed.skipBytes(GrpcHeaders.MESSAGE_HEADER_LENGTH);
  }

  @Override
  public void close(Status status, Metadata trailers) {
    Metadata headers = responseHeaders;
    if (headers == null) {
      headers = trailers;
    } else {
      headers.merge(trailers);
    }
    ByteBuf body = message;
    message = null;
    Metadata all = headers;
    // Always a task, even on the event loop: the listener is set once the dispatcher returns.
    eventLoop.execute(() -> respond(status, all, body));
  }

  @Override
  public void cancel(Status status) {
    ByteBuf body = message;
    message = null;
    if (body != null) {
      body.release();
    }
    eventLoop.execute(() -> {
      if (ended) {
        return;
      }
      ended = true;
      writer.writeError(alloc, HttpUnary.httpStatusOf(status.code()), status, null);
      listener.onCancel(status);
    });
  }

  private void respond(Status status, Metadata headers, ByteBuf body) {
    if (ended) {
      if (body != null) {
        body.release();
      }
      return;
    }
    ended = true;
    if (status.isOk() && body == null) {
      status = Status.INTERNAL.withDescription("The service completed without a response");
    }
    io.netty.channel.ChannelFuture written;
    if (status.isOk()) {
      written = writer.writeResponse(200, contentType, headers, null, body);
    } else {
      if (body != null) {
        body.release();
      }
      written = writer.writeError(alloc, HttpUnary.httpStatusOf(status.code()), status, null);
    }
    written.addListener(future -> {
      if (future.isSuccess()) {
        listener.onComplete();
      } else {
        listener.onCancel(Status.UNAVAILABLE.withDescription("Could not send the response: " + future.cause()));
      }
    });
  }

  @Override
  public boolean isReady() {
    return true;
  }

  @Override
  public PeerInfo peer() {
    return peer;
  }

  @Override
  public ByteBufAllocator alloc() {
    return alloc;
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return eventLoop;
  }

  @Override
  public long nanoTime() {
    return eventLoop.ticker().nanoTime();
  }
}
