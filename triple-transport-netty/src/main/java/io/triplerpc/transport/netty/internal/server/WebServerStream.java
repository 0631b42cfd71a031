package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.wire.MessageDeframer;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.OutboundReadiness;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The server side of one call of a web protocol (Connect, gRPC-Web; gRPC on HTTP/3) on an
 * {@link HttpExchange}, HTTP/1.1, HTTP/2 or HTTP/3: the request body becomes core's messages (through the deframer, or whole when it is one
 * unframed message), and core's writes become the protocol's response through its {@link WebFraming}.
 *
 * <p>The service thread calls {@link #writeHeaders}, {@link #writeMessage}, {@link #close} and
 * {@link #cancel}, one at a time; each becomes a task on the event loop, which owns everything else.
 * The web protocols are not the hot path: a task per write keeps this class simple. On HTTP/2 the
 * exchange turns each write into a command on the connection's write queue, as gRPC's streams do.
 */
public final class WebServerStream extends AbstractServerStream implements MessageDeframer.Sink {

  private final HttpExchange exchange;
  private final WebFraming framing;
  private final int maxInboundMessageSize;
  private final boolean compressedRequest;

  // The sending thread's: what a head-at-end response holds until its close.
  private Metadata heldHeaders;
  private MessageEncoding heldEncoding;
  private ByteBuf heldMessage;

  // The event loop's.
  private final MessageDeframer deframer;
  /** An unframed request body while it arrives; null before and after. */
  private CompositeByteBuf body;
  private ServerStreamListener listener;
  private boolean headSent;
  /** The response ended (or the exchange was lost): nothing more is written, nothing more read. */
  private boolean ended;
  private boolean requestEnded;

  /**
   * @param compressedRequest whether an unframed request body is compressed (Connect unary's
   *     {@code content-encoding})
   */
  WebServerStream(HttpExchange exchange, WebFraming framing, ByteBufAllocator alloc, int maxInboundMessageSize,
      boolean compressedRequest) {
    super(exchange.eventLoop(), alloc, exchange::holdsBack);
    this.exchange = exchange;
    this.framing = framing;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.compressedRequest = compressedRequest;
    if (framing.unframedRequest()) {
      this.deframer = null;
      this.body = alloc.compositeBuffer(Integer.MAX_VALUE);
    } else {
      this.deframer = new MessageDeframer(this, maxInboundMessageSize, alloc);
    }
  }

  /** Core's listener for the call, set once the dispatcher returns. Event loop. */
  void listener(ServerStreamListener listener) {
    this.listener = listener;
  }

  // Inbound, from the exchange's owner: event loop.

  /** Bytes of the request body; owns {@code data}. */
  public void dataRead(ByteBuf data, boolean endOfRequest) {
    if (ended || requestEnded) {
      exchange.consumed(data.readableBytes());
      data.release();
      return;
    }
    requestEnded = endOfRequest;
    if (deframer != null) {
      if (framing.decodesRequest()) {
        exchange.consumed(data.readableBytes());
      }
      ByteBuf bytes;
      try {
        bytes = framing.requestBytes(data);
      } catch (IllegalArgumentException e) {
        fail(Status.INTERNAL.withDescription("Malformed gRPC-Web text body: " + e.getMessage()));
        return;
      }
      deframer.deframe(bytes, endOfRequest);
      return;
    }
    int size = data.readableBytes();
    exchange.consumed(size);
    if ((long) body.readableBytes() + size > maxInboundMessageSize) {
      data.release();
      // 413, the HTTP answer to a body too large; the JSON error says RESOURCE_EXHAUSTED.
      Status status = Status.RESOURCE_EXHAUSTED.withDescription(
          "Request body larger than the server's maximum message size of " + maxInboundMessageSize + " bytes");
      refuse(status, 413);
      if (listener != null) {
        listener.onCancel(status);
      }
      return;
    }
    body.addComponent(true, data);
    if (endOfRequest) {
      ByteBuf whole = body;
      body = null;
      listener.onMessage(whole, compressedRequest);
      if (!ended) {
        listener.onHalfClose();
      }
    }
  }

  /** The client went away (a reset stream, a closed connection) before the response ended. */
  public void lost(Status status) {
    if (ended) {
      return;
    }
    ended = true;
    releaseInbound();
    if (listener != null) {
      listener.onCancel(status);
    }
  }

  /** Ends the call with {@code status} as the response, before or instead of the service. Event loop. */
  void fail(Status status) {
    if (ended) {
      return;
    }
    respond(status, new Metadata(), null, null, null);
    if (listener != null) {
      listener.onCancel(status);
    }
  }

  // MessageDeframer.Sink: event loop.

  @Override
  public void onMessage(ByteBuf payload, boolean compressed) {
    listener.onMessage(payload, compressed);
  }

  @Override
  public void onBytesConsumed(int bytes) {
    if (!framing.decodesRequest()) {
      exchange.consumed(bytes);
    }
  }

  @Override
  public void onEndOfStream() {
    listener.onHalfClose();
  }

  @Override
  public void onDeframeError(Status status) {
    fail(status);
  }

  // ServerStream: the sending thread.

  @Override
  public void request(int count) {
    if (deframer == null) {
      return;
    }
    if (eventLoop.inEventLoop()) {
      requestNow(count);
    } else {
      eventLoop.execute(() -> requestNow(count));
    }
  }

  private void requestNow(int count) {
    if (!ended) {
      deframer.request(count);
    }
  }

  @Override
  public void writeHeaders(Metadata headers, MessageEncoding responseEncoding, boolean flush) {
    if (framing.headAtEnd() || framing.headWithFirstMessage()) {
      heldHeaders = headers;
      heldEncoding = responseEncoding;
      return;
    }
    eventLoop.execute(() -> {
      if (ended) {
        return;
      }
      headSent = true;
      exchange.writeHead(framing.head(headers, responseEncoding), false);
      if (flush) {
        exchange.flush();
      }
    });
  }

  /** The connection or the server stopped holding calls back. Event loop. */
  public void decongested() {
    if (!ended && listener != null && readiness.isReady()) {
      listener.onReady();
    }
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean flush) {
    if (framing.headAtEnd()) {
      if (heldMessage != null) {
        heldMessage.release();
      }
      heldMessage = framed;
      return;
    }
    int size = framed.readableBytes();
    readiness.queued(size);
    // A head held for the first message goes with it; taken here, on the sending thread that held it.
    Metadata headers = heldHeaders;
    MessageEncoding encoding = heldEncoding;
    heldHeaders = null;
    heldEncoding = null;
    boolean headFirst = framing.headWithFirstMessage();
    eventLoop.execute(() -> {
      if (ended) {
        framed.release();
        return;
      }
      if (headFirst && !headSent) {
        headSent = true;
        exchange.writeHead(framing.head(headers == null ? new Metadata() : headers, encoding), false);
      }
      exchange.writeBody(framing.message(framed), false).addListener(future -> {
        if (readiness.sent(size) && !ended) {
          listener.onReady();
        }
      });
      if (flush) {
        exchange.flush();
      }
    });
  }

  @Override
  public void close(Status status, Metadata trailers) {
    Metadata headers = heldHeaders;
    MessageEncoding encoding = heldEncoding;
    ByteBuf message = heldMessage;
    heldHeaders = null;
    heldMessage = null;
    // Always a task, even on the event loop: the listener is set once the dispatcher returns.
    eventLoop.execute(() -> {
      if (ended) {
        if (message != null) {
          message.release();
        }
        return;
      }
      respond(status, trailers, headers, encoding, message).addListener(future -> {
        if (future.isSuccess()) {
          listener.onComplete();
        } else {
          listener.onCancel(Status.UNAVAILABLE.withDescription("Could not send the response: " + future.cause()));
        }
      });
    });
  }

  /** Connect unary answers with {@code httpStatus}, as an HTTP router would; the streaming protocols in their own terms. */
  @Override
  public void closeRefused(Status status, int httpStatus) {
    if (!framing.unframedRequest()) {
      close(status, new Metadata());
      return;
    }
    eventLoop.execute(() -> {
      ChannelFuture written = refuse(status, httpStatus);
      if (written != null) {
        // As after close: the call is over for the listener too (observers count refused calls).
        written.addListener(future -> {
          if (future.isSuccess()) {
            listener.onComplete();
          } else {
            listener.onCancel(Status.UNAVAILABLE.withDescription("Could not send the response: " + future.cause()));
          }
        });
      }
    });
  }

  /**
   * Ends an unframed call (Connect unary, REST) with {@code httpStatus} and its protocol's JSON error; the
   * write, or null if the call had ended. Event loop.
   */
  private ChannelFuture refuse(Status status, int httpStatus) {
    if (ended) {
      return null;
    }
    ended = true;
    releaseInbound();
    WebFraming.End end = framing.refused(httpStatus, status, alloc);
    if (httpStatus == 405) {
      end.head().add(WebCalls.ALLOW, WebCalls.ALLOW_POST);
    }
    exchange.writeHead(end.head(), false);
    ChannelFuture written = exchange.writeBody(end.body(), true);
    exchange.flush();
    return written;
  }

  @Override
  public void cancel(Status status) {
    ByteBuf message = heldMessage;
    heldMessage = null;
    if (message != null) {
      message.release();
    }
    eventLoop.execute(() -> fail(status));
  }

  /** Writes the end of the response; the call is over for the transport. Event loop. */
  private ChannelFuture respond(
      Status status, Metadata trailers, Metadata headers, MessageEncoding encoding, ByteBuf message) {
    ended = true;
    releaseInbound();
    WebFraming.End end = framing.end(status, headers, encoding, message, trailers, headSent, alloc);
    if (end.trailers() != null) {
      if (end.head() != null) {
        exchange.writeHead(end.head(), false);
      }
      if (end.body() != null) {
        exchange.writeBody(end.body(), false);
      }
      ChannelFuture written = exchange.writeTrailers(end.trailers());
      headSent = true;
      exchange.flush();
      return written;
    }
    if (end.head() != null) {
      exchange.writeHead(end.head(), false);
    }
    ChannelFuture written = exchange.writeBody(end.body(), true);
    headSent = true;
    exchange.flush();
    return written;
  }

  private void releaseInbound() {
    if (deframer != null) {
      deframer.close();
    }
    if (body != null) {
      body.release();
      body = null;
    }
  }

  @Override
  public PeerInfo peer() {
    return exchange.peer();
  }

  @Override
  public String protocol() {
    return framing.protocol();
  }

}
