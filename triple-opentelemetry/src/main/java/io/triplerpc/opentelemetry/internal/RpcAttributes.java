package io.triplerpc.opentelemetry.internal;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.triplerpc.Status;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The names and rules of OpenTelemetry's semantic conventions for gRPC spans, release v1.44.0 (the RPC
 * conventions are a release candidate there; {@code rpc.message} events come from v1.37.0, the last
 * release that defined them).
 */
final class RpcAttributes {

  static final AttributeKey<String> RPC_SYSTEM_NAME = AttributeKey.stringKey("rpc.system.name");
  static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
  static final AttributeKey<String> RPC_RESPONSE_STATUS_CODE = AttributeKey.stringKey("rpc.response.status_code");
  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  static final AttributeKey<String> NETWORK_PEER_ADDRESS = AttributeKey.stringKey("network.peer.address");
  static final AttributeKey<Long> NETWORK_PEER_PORT = AttributeKey.longKey("network.peer.port");

  static final String MESSAGE_EVENT = "rpc.message";
  static final AttributeKey<String> MESSAGE_TYPE = AttributeKey.stringKey("rpc.message.type");
  static final AttributeKey<Long> MESSAGE_ID = AttributeKey.longKey("rpc.message.id");

  /** Triple speaks gRPC (and protocols that carry gRPC's codes), so its spans are gRPC's. */
  static final String GRPC = "grpc";
  /** {@code rpc.system.name} of Connect calls (curl's and browsers' JSON calls included). */
  static final String CONNECTRPC = "connectrpc";

  /** {@code rpc.system.name} of a server call that came in {@code protocol} ({@link io.triplerpc.ServerCall#protocol}). */
  static String systemOf(String protocol) {
    return "connect".equals(protocol) ? CONNECTRPC : GRPC;
  }

  private RpcAttributes() {}

  /** The {@code rpc.message} event of the {@code id}th message sent (counted from 1). */
  static Attributes sent(long id) {
    return Attributes.of(MESSAGE_TYPE, "SENT", MESSAGE_ID, id);
  }

  /** The {@code rpc.message} event of the {@code id}th message received (counted from 1). */
  static Attributes received(long id) {
    return Attributes.of(MESSAGE_TYPE, "RECEIVED", MESSAGE_ID, id);
  }

  /** Sets {@code network.peer.address} and {@code network.peer.port} from {@code peer}, if it is an IP socket. */
  static void setPeer(Span span, SocketAddress peer) {
    if (!(peer instanceof InetSocketAddress)) {
      return;
    }
    InetSocketAddress socket = (InetSocketAddress) peer;
    InetAddress ip = socket.getAddress();
    // The IP as the socket has it, never a reverse DNS look-up.
    span.setAttribute(NETWORK_PEER_ADDRESS, ip != null ? ip.getHostAddress() : socket.getHostString());
    span.setAttribute(NETWORK_PEER_PORT, (long) socket.getPort());
  }

  /** Records how a client call ended: every code but OK is an error. */
  static void endClient(Span span, Status status) {
    record(span, status, !status.isOk());
  }

  /**
   * Records how a server call ended: only the codes that say the server failed are errors (UNKNOWN,
   * DEADLINE_EXCEEDED, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS); the others answer the client.
   */
  static void endServer(Span span, Status status) {
    record(span, status, isServerError(status.code()));
  }

  static boolean isServerError(Status.Code code) {
    switch (code) {
      case UNKNOWN:
      case DEADLINE_EXCEEDED:
      case UNIMPLEMENTED:
      case INTERNAL:
      case UNAVAILABLE:
      case DATA_LOSS:
        return true;
      default:
        return false;
    }
  }

  /** Records a call that failed with {@code failure} before it had a status. */
  static void recordFailure(Span span, Throwable failure) {
    span.setAttribute(ERROR_TYPE, failure.getClass().getName());
    setError(span, failure.getMessage());
  }

  private static void record(Span span, Status status, boolean error) {
    String code = status.code().name();
    span.setAttribute(RPC_RESPONSE_STATUS_CODE, code);
    if (error) {
      span.setAttribute(ERROR_TYPE, code);
      // The description says what the code (already in error.type) does not.
      setError(span, status.description());
    }
  }

  private static void setError(Span span, String description) {
    if (description != null) {
      span.setStatus(StatusCode.ERROR, description);
    } else {
      span.setStatus(StatusCode.ERROR);
    }
  }
}
