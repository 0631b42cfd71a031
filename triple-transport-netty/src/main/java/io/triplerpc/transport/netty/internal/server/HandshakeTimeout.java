package io.triplerpc.transport.netty.internal.server;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a new connection that has not chosen its protocol in time: a TLS handshake, then the HTTP/2
 * preface and SETTINGS, or an HTTP/1.1 request's line and headers. Whatever handler sees the protocol
 * chosen calls {@link #done}.
 */
final class HandshakeTimeout {

  private static final Logger log = LoggerFactory.getLogger(HandshakeTimeout.class);
  private static final AttributeKey<ScheduledFuture<?>> TIMER = AttributeKey.valueOf("triple.handshakeTimeout");

  private HandshakeTimeout() {
  }

  /** Starts the timer of a connection just accepted. Event loop. */
  static void start(Channel channel, long timeoutNanos) {
    ScheduledFuture<?> timer = channel.eventLoop().schedule(() -> {
      if (channel.attr(TIMER).getAndSet(null) != null && channel.isActive()) {
        log.debug("Closed {}: no protocol chosen within {} ms", channel,
            TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        channel.close();
      }
    }, timeoutNanos, TimeUnit.NANOSECONDS);
    channel.attr(TIMER).set(timer);
    channel.closeFuture().addListener(closed -> done(channel));
  }

  /** The connection chose its protocol, or closed: no timeout. */
  static void done(Channel channel) {
    ScheduledFuture<?> timer = channel.attr(TIMER).getAndSet(null);
    if (timer != null) {
      timer.cancel(false);
    }
  }
}
