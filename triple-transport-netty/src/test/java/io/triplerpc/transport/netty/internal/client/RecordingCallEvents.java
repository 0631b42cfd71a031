package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.MessageEncoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The call's side of a framing under test: records each event as a line (buffers as their text,
 * released at once), and the status and trailers the call ended with.
 */
final class RecordingCallEvents implements ClientFraming.CallEvents {

  final List<String> events = new ArrayList<>();
  Status status;
  Metadata trailers;
  Metadata headers;

  @Override
  public void headers(Metadata headers, MessageEncoding responseEncoding) {
    this.headers = headers;
    events.add("headers " + (responseEncoding == null ? "identity" : responseEncoding.wireName()));
  }

  @Override
  public void framed(ByteBuf data, boolean endOfBody) {
    events.add("framed " + ByteBufUtil.hexDump(data) + (endOfBody ? " end" : ""));
    data.release();
  }

  @Override
  public void message(ByteBuf payload, boolean compressed) {
    events.add("message " + payload.toString(StandardCharsets.UTF_8) + (compressed ? " compressed" : ""));
    payload.release();
  }

  @Override
  public void consumed(int bytes) {
    events.add("consumed " + bytes);
  }

  @Override
  public void trailers(Status status, Metadata trailers) {
    ended("trailers", status, trailers);
  }

  @Override
  public void end(Status status, Metadata trailers) {
    ended("end", status, trailers);
  }

  @Override
  public void close(Status status, Metadata trailers) {
    ended("close", status, trailers);
  }

  @Override
  public void fail(Status status) {
    ended("fail", status, null);
  }

  private void ended(String event, Status status, Metadata trailers) {
    this.status = status;
    this.trailers = trailers;
    events.add(event + " " + status.code());
  }
}
