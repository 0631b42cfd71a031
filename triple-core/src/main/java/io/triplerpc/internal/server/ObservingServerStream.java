package io.triplerpc.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.observe.ObservedCallImpl;
import io.triplerpc.internal.stream.ServerStream;
import io.triplerpc.internal.stream.ServerStreamListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A server stream whose call its observers see: the messages written and read, and the status it
 * ends with, told when the transport says it ended. Wraps both the stream and the listener the call
 * gives the transport, so that refused calls (unknown methods, limits) are seen as well as served ones,
 * and the call path itself carries no observer code.
 */
final class ObservingServerStream implements ServerStream {

  private final ServerStream stream;
  private final ObservedCallImpl observed;
  /** What the call closed with; the end is told when the transport completes or cancels the stream. */
  private volatile Status closedWith;

  ObservingServerStream(ServerStream stream, ObservedCallImpl observed) {
    this.stream = stream;
    this.observed = observed;
  }

  /** {@code listener}, counting the messages read and ending the observed call with the stream. */
  ServerStreamListener observe(ServerStreamListener listener) {
    return new ServerStreamListener() {
      @Override
      public void onMessage(ByteBuf payload, boolean compressed) {
        observed.messageReceived(payload.readableBytes());
        listener.onMessage(payload, compressed);
      }

      @Override
      public void onHalfClose() {
        listener.onHalfClose();
      }

      @Override
      public void onCancel(Status status) {
        observed.end(status);
        listener.onCancel(status);
      }

      @Override
      public void onComplete() {
        Status status = closedWith;
        observed.end(status != null ? status : Status.OK);
        listener.onComplete();
      }

      @Override
      public void onReady() {
        listener.onReady();
      }
    };
  }

  @Override
  public void request(int count) {
    stream.request(count);
  }

  @Override
  public void writeHeaders(Metadata headers, MessageEncoding responseEncoding, boolean flush) {
    stream.writeHeaders(headers, responseEncoding, flush);
  }

  @Override
  public boolean admit(int framedSize) {
    return stream.admit(framedSize);
  }

  @Override
  public void withdraw(int framedSize) {
    stream.withdraw(framedSize);
  }

  @Override
  public void writeMessage(ByteBuf framed, boolean flush) {
    observed.messageSent(framed.readableBytes() - GrpcHeaders.MESSAGE_HEADER_LENGTH);
    stream.writeMessage(framed, flush);
  }

  @Override
  public void close(Status status, Metadata trailers) {
    closedWith = status;
    stream.close(status, trailers);
  }

  @Override
  public void closeRefused(Status status, int httpStatus) {
    closedWith = status;
    stream.closeRefused(status, httpStatus);
  }

  @Override
  public void cancel(Status status) {
    closedWith = status;
    stream.cancel(status);
  }

  @Override
  public boolean isReady() {
    return stream.isReady();
  }

  @Override
  public PeerInfo peer() {
    return stream.peer();
  }

  @Override
  public ByteBufAllocator alloc() {
    return stream.alloc();
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return stream.scheduler();
  }

  @Override
  public long nanoTime() {
    return stream.nanoTime();
  }

  @Override
  public String protocol() {
    return stream.protocol();
  }
}
