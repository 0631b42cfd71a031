package io.triplerpc.transport.netty.internal;

import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2Settings;
import io.triplerpc.internal.stream.Http2Limits;

/**
 * Builds a client or server handler through Netty's own builder, so that it gets the protections the
 * builder wraps around the encoder and decoder, and which Netty keeps package-private: the cap on
 * queued control frames ({@code Http2ControlFrameLimitEncoder}), the RST_STREAM rate limits, received
 * (clients only: {@code Http2MaxRstFrameDecoder}) and sent ({@code Http2MaxRstFrameLimitEncoder}), the cap on empty
 * DATA frames ({@code Http2EmptyDataFrameConnectionDecoder}) and on small CONTINUATION frames. Each
 * answers its abuse with a connection error ENHANCE_YOUR_CALM: GOAWAY, then close. The limits come
 * from {@link Http2Limits}; a limit of 0 installs nothing.
 *
 * <p>Everything else is as the handlers had it when they built their codec by hand: header
 * validation on, automatic PING and SETTINGS acknowledgements, the headers decoder limited to the
 * settings' max header list size, MAX_CONCURRENT_STREAMS enforced once acknowledged. Headers whose
 * value is new on every call stay out of the HPACK table ({@link PerCallHeaders}).
 *
 * @param <T> the handler built
 */
public final class GrpcHttp2HandlerBuilder<T extends GrpcHttp2ConnectionHandler>
    extends AbstractHttp2ConnectionHandlerBuilder<T, GrpcHttp2HandlerBuilder<T>> {

  /** Makes the handler from the decoder and encoder the builder wrapped. */
  @FunctionalInterface
  public interface Factory<T> {
    T create(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings);
  }

  private final Factory<T> factory;
  /** The handler's first SETTINGS frame, MAX_CONCURRENT_STREAMS included. */
  private final Http2Settings settings;

  private GrpcHttp2HandlerBuilder(
      Http2Connection connection, Http2FrameLogger frames, Http2Settings settings, Http2Limits limits,
      Factory<T> factory) {
    this.factory = factory;
    this.settings = settings;
    boolean server = connection.isServer();
    connection(connection);
    if (frames != null) {
      frameLogger(frames);
    }
    // The builder would enforce MAX_CONCURRENT_STREAMS before the peer has seen it, and refuse the
    // streams a client opens before our SETTINGS arrive (its later DATA then ends the connection);
    // the handler applies it when acknowledged, as RFC 9113 6.5.3 expects. So the builder sees the
    // settings without it; the handler gets them whole.
    Http2Settings withoutStreamLimit = new Http2Settings();
    withoutStreamLimit.copyFrom(settings);
    withoutStreamLimit.remove(Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS);
    initialSettings(withoutStreamLimit);
    encoderEnforceMaxQueuedControlFrames(limits.maxQueuedControlFrames());
    decoderEnforceMaxConsecutiveEmptyDataFrames(limits.maxConsecutiveEmptyDataFrames());
    // A server judges the resets it receives by their age instead (PrematureResets): a count per window
    // would cut off a client whose calls time out under load, and Netty's builder counts by default.
    decoderEnforceMaxRstFramesPerWindow(server ? 0 : limits.maxRstFramesPerWindow(), limits.rstFramesWindowSeconds());
    encoderEnforceMaxRstFramesPerWindow(limits.maxRstFramesPerWindow(), limits.rstFramesWindowSeconds());
    // A client's streams wait for the server's MAX_CONCURRENT_STREAMS instead of failing.
    encoderEnforceMaxConcurrentStreams(!server);
    headerSensitivityDetector(new PerCallHeaders());
  }

  /**
   * A server connection's handler on {@code connection} (see {@link GrpcHttp2ConnectionHandler#newConnection}),
   * with {@code settings} as its first SETTINGS frame; {@code frames}, if not null, sees every frame read
   * before the decoder does and every frame written.
   */
  public static <T extends GrpcHttp2ConnectionHandler> T server(
      Http2Connection connection, Http2FrameLogger frames, Http2Settings settings, Http2Limits limits,
      Factory<T> factory) {
    return new GrpcHttp2HandlerBuilder<>(connection, frames, settings, limits, factory).build();
  }

  /** A client connection's handler, with {@code settings} as its first SETTINGS frame. */
  public static <T extends GrpcHttp2ConnectionHandler> T client(
      Http2Settings settings, Http2Limits limits, Factory<T> factory) {
    return new GrpcHttp2HandlerBuilder<>(
        GrpcHttp2ConnectionHandler.newConnection(false), null, settings, limits, factory).build();
  }

  @Override
  protected T build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings ignored) {
    T handler = factory.create(decoder, encoder, settings);
    // The builder sets its own graceful shutdown timeout on the handler it returns; the handler's
    // constructor chose one for its side, so that one is handed back.
    gracefulShutdownTimeoutMillis(handler.gracefulShutdownTimeoutMillis());
    return handler;
  }
}
