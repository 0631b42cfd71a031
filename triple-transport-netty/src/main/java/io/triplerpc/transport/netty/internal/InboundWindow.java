package io.triplerpc.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inbound flow control of one stream: hands bytes the reader has taken back to HTTP/2's window, and
 * flushes the WINDOW_UPDATE when that happened outside a read (a read's completion flushes its own).
 * Event loop only.
 */
public final class InboundWindow {

  private static final Logger log = LoggerFactory.getLogger(InboundWindow.class);

  private final Http2LocalFlowController flowController;
  private final Channel channel;
  private Http2Stream stream;
  private boolean updateWritten;

  public InboundWindow(Http2LocalFlowController flowController, Channel channel) {
    this.flowController = flowController;
    this.channel = channel;
  }

  /** The HTTP/2 stream, once it exists. */
  public void attach(Http2Stream stream) {
    this.stream = stream;
  }

  /** The reader took {@code bytes}: they may be sent again. */
  public void consumed(int bytes) {
    Http2Stream s = stream;
    if (s == null || s.state() == Http2Stream.State.CLOSED) {
      return;
    }
    try {
      if (flowController.consumeBytes(s, bytes)) {
        updateWritten = true;
      }
    } catch (Http2Exception e) {
      log.debug("Could not return {} flow-control bytes of stream {}", bytes, s.id(), e);
    }
  }

  /** Flushes a WINDOW_UPDATE written since the last flush; call after a request() outside a read. */
  public void flushUpdate() {
    if (updateWritten) {
      updateWritten = false;
      channel.flush();
    }
  }
}
