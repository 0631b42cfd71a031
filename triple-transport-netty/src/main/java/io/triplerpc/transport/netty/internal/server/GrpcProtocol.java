package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.GrpcTimeout;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import io.triplerpc.transport.netty.internal.OutboundBacklog;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.RejectStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.SendHeadersCommand;
import io.triplerpc.transport.netty.internal.write.SendResponseCommand;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gRPC on a server connection's streams: checks a request's gRPC headers and opens a
 * {@link NettyServerStream} for core; writes its responses (headers, length-prefixed messages,
 * trailers) when the connection runs their commands. Event loop only.
 */
final class GrpcProtocol implements ServerProtocol {

  private static final Logger log = LoggerFactory.getLogger(GrpcProtocol.class);
  private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=utf-8");
  private static final AsciiString ALLOW = AsciiString.cached("allow");

  private final NettyServerHandler connection;
  private final ServerTransportListener listener;
  private final int maxInboundMessageSize;
  /** Response bytes the client has not taken yet, the connection's. */
  private final OutboundBacklog backlog;

  GrpcProtocol(NettyServerHandler connection, ServerTransportListener listener, int maxInboundMessageSize,
      OutboundBacklog backlog) {
    this.connection = connection;
    this.listener = listener;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.backlog = backlog;
  }

  @Override
  public void open(ChannelHandlerContext ctx, Http2Stream http2Stream, Http2Headers headers, boolean endOfStream) {
    int streamId = http2Stream.id();
    if (!GrpcHeaders.POST.contentEquals(headers.method())) {
      respondHttpError(ctx, streamId, 405,
          Status.INTERNAL.withDescription("Method not allowed: " + headers.method() + "; gRPC uses POST"), "POST");
      return;
    }
    CharSequence path = headers.path();
    if (path == null || path.length() == 0 || path.charAt(0) != '/') {
      respondError(streamId, Status.UNIMPLEMENTED.withDescription("Malformed :path: " + path));
      return;
    }
    MessageEncoding encoding;
    try {
      encoding = MessageEncoding.forName(headers.get(GrpcHeaders.GRPC_ENCODING));
    } catch (IllegalArgumentException e) {
      respondError(streamId, Status.UNIMPLEMENTED.withDescription(e.getMessage()));
      return;
    }
    String codec = GrpcHeaders.codecOf(headers.get(GrpcHeaders.CONTENT_TYPE));
    AsciiString contentType = GrpcHeaders.APPLICATION_GRPC;
    if ("json".equals(codec)) {
      contentType = GrpcHeaders.APPLICATION_GRPC_JSON;
    } else if (codec == null || "proto".equals(codec)) {
      // The method's own codec: protobuf, or for plain Java types the wrapper Dubbo uses, which Dubbo
      // clients also announce as application/grpc+proto.
      codec = null;
    } else {
      respondHttpError(ctx, streamId, 415, Status.INTERNAL.withDescription(
          "Unsupported gRPC codec: " + headers.get(GrpcHeaders.CONTENT_TYPE)
              + "; use application/grpc, application/grpc+proto or application/grpc+json"), null);
      return;
    }
    long timeoutNanos;
    try {
      timeoutNanos = GrpcTimeout.requestTimeoutNanos(headers.get(GrpcHeaders.GRPC_TIMEOUT));
    } catch (IllegalArgumentException e) {
      respondError(streamId, Status.INTERNAL.withDescription(e.getMessage()));
      return;
    }
    if (timeoutNanos > 0) {
      connection.announcedTimeout(streamId, timeoutNanos);
    }
    NettyServerStream stream = new NettyServerStream(
        streamId,
        http2Stream,
        connection.decoder().flowController(),
        connection.writeQueue(),
        ctx.channel(),
        connection.peer(ctx),
        maxInboundMessageSize,
        backlog,
        connection.serverBacklog(),
        connection::holdsBack,
        contentType);
    connection.attach(http2Stream, stream.state());
    InboundRequest request = new InboundRequest(
        path,
        GrpcHttp2Headers.lazyMetadata(headers),
        timeoutNanos,
        encoding,
        headers.get(GrpcHeaders.GRPC_ACCEPT_ENCODING),
        codec,
        false,
        false);
    stream.state().listener(listener.streamCreated(stream, request));
    if (endOfStream) {
      stream.state().dataRead(Unpooled.EMPTY_BUFFER, true);
    }
  }

  /** Answers a gRPC request that cannot be served with a trailers-only response. */
  void respondError(int streamId, Status status) {
    Http2Headers headers = new DefaultHttp2Headers(false).status(GrpcHeaders.STATUS_200);
    headers.add(GrpcHeaders.CONTENT_TYPE, GrpcHeaders.APPLICATION_GRPC);
    headers.add(GrpcHeaders.GRPC_ACCEPT_ENCODING, MessageEncoding.ACCEPT_ENCODING);
    GrpcHttp2Headers.addStatus(headers, status);
    reject(streamId, headers, Unpooled.EMPTY_BUFFER);
  }

  /** Answers a request that is not a valid gRPC request with a plain HTTP status, ending the stream. */
  private void respondHttpError(
      ChannelHandlerContext ctx, int streamId, int httpStatus, Status status, CharSequence allow) {
    Http2Headers headers = new DefaultHttp2Headers(false)
        .status(AsciiString.of(Integer.toString(httpStatus)));
    headers.add(GrpcHeaders.CONTENT_TYPE, TEXT_PLAIN);
    if (allow != null) {
      headers.add(ALLOW, allow);
    }
    GrpcHttp2Headers.addStatus(headers, status);
    ByteBuf body = ctx.alloc().buffer();
    body.writeCharSequence(status.description() + "\n", StandardCharsets.UTF_8);
    reject(streamId, headers, body);
  }

  /**
   * Answers, through the connection's queue, a request that opens no call. Written now, in the read that
   * brought the request, as the stream's answer must be before its next frame is read.
   */
  private void reject(int streamId, Http2Headers head, ByteBuf body) {
    connection.writeNow(new RejectStreamCommand(streamId, head, body));
  }

  /** Runs a {@link RejectStreamCommand}: the head, the body if any, and the client is told to stop sending. */
  void reject(ChannelHandlerContext ctx, RejectStreamCommand command, ChannelPromise promise) {
    int streamId = command.stream().id();
    ByteBuf body = command.content();
    if (body.isReadable()) {
      encoder().writeHeaders(ctx, streamId, command.head(), 0, false, ctx.newPromise());
      encoder().writeData(ctx, streamId, body, 0, true, promise);
    } else {
      command.release();
      encoder().writeHeaders(ctx, streamId, command.head(), 0, true, promise);
    }
    connection.stopClientSending(ctx, streamId);
  }

  void sendHeaders(ChannelHandlerContext ctx, SendHeadersCommand command, ChannelPromise promise) {
    NettyServerStream stream = (NettyServerStream) command.stream();
    NettyServerStream.TransportState state = stream.state();
    if (state.ended()) {
      promise.setSuccess();
      return;
    }
    boolean end = command.endOfStream();
    state.headersWritten(end);
    encoder().writeHeaders(ctx, stream.id(), command.headers(), 0, end, promise);
    if (end) {
      promise.addListener(future -> state.completed(future.isSuccess() ? null : future.cause()));
      connection.stopClientSending(ctx, stream.id());
    }
  }

  void sendResponse(ChannelHandlerContext ctx, SendResponseCommand command, ChannelPromise promise) {
    NettyServerStream stream = (NettyServerStream) command.stream();
    NettyServerStream.TransportState state = stream.state();
    if (state.ended()) {
      stream.dropped(command.content());
      promise.setSuccess();
      return;
    }
    int id = stream.id();
    if (command.headers() != null) {
      state.headersWritten(false);
      // A failure here fails the trailers' write too, which reports it through the command.
      encoder().writeHeaders(ctx, id, command.headers(), 0, false, ctx.newPromise());
    }
    ByteBuf message = command.content();
    int size = message.readableBytes();
    stream.dataQueued(size);
    // Nobody listens to the message's promise: the encoder writes a stream's frames in order, so
    // trailers written mean the message was, and the trailers' listener accounts for both.
    encoder().writeData(ctx, id, message, 0, false, ctx.newPromise());
    state.headersWritten(true);
    encoder().writeHeaders(ctx, id, command.trailers(), 0, true, promise);
    promise.addListener(future -> {
      if (future.isSuccess()) {
        stream.onDataSent(size);
        state.completed(null);
      } else {
        state.completed(future.cause());
      }
    });
    connection.stopClientSending(ctx, id);
    checkBacklog(ctx, stream);
  }

  void sendData(ChannelHandlerContext ctx, SendDataCommand command, ChannelPromise promise) {
    NettyServerStream stream = (NettyServerStream) command.stream();
    if (stream.state().ended()) {
      stream.dropped(command.content());
      promise.setSuccess();
      return;
    }
    stream.dataQueued(command.content().readableBytes());
    encoder().writeData(ctx, stream.id(), command.content(), 0, command.endOfStream(), promise);
    checkBacklog(ctx, stream);
  }

  void cancelStream(ChannelHandlerContext ctx, CancelStreamCommand command, ChannelPromise promise) {
    NettyServerStream stream = (NettyServerStream) command.stream();
    NettyServerStream.TransportState state = stream.state();
    if (state.ended()) {
      promise.setSuccess();
      return;
    }
    Http2Stream http2Stream = connection.connection().stream(stream.id());
    if (http2Stream != null && http2Stream.state() != Http2Stream.State.CLOSED
        && http2Stream.state() != Http2Stream.State.HALF_CLOSED_LOCAL) {
      // The status goes out in trailers, so the client learns why (a deadline, an oversized message).
      Http2Headers trailers = new DefaultHttp2Headers(false);
      if (!state.headersSent()) {
        trailers.status(GrpcHeaders.STATUS_200);
        trailers.add(GrpcHeaders.CONTENT_TYPE, stream.contentType());
      }
      GrpcHttp2Headers.addStatus(trailers, command.status());
      encoder().writeHeaders(ctx, stream.id(), trailers, 0, true, ctx.newPromise());
      connection.stopClientSending(ctx, stream.id());
    }
    state.cancelled(command.status());
    promise.setSuccess();
  }

  /**
   * Past the backlog's limit, the stream just written is reset, its response dropped; if a stream was
   * reset for it before and the client has not shown since that it reads, it does not read at all and
   * the connection goes away.
   */
  private void checkBacklog(ChannelHandlerContext ctx, NettyServerStream stream) {
    connection.enforceBacklog(ctx, stream.id(), status -> stream.state().cancelled(status));
  }

  private Http2ConnectionEncoder encoder() {
    return connection.encoder();
  }
}
