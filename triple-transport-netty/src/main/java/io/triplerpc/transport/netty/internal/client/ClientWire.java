package io.triplerpc.transport.netty.internal.client;

import io.triplerpc.ClientProtocol;
import io.triplerpc.MethodType;

/** How one client call is framed on its HTTP/2 stream. */
enum ClientWire {
  /** gRPC: messages with the 5-byte prefix, trailers in an HTTP/2 header block. */
  GRPC,
  /** gRPC-Web: gRPC's messages, the trailers as the body's last frame (flag 0x80). */
  GRPC_WEB,
  /** Connect unary: the body is the message, unframed; an error is HTTP status and JSON. */
  CONNECT_UNARY,
  /** Connect streaming: prefixed messages, ended by a JSON frame (flag 0x02). */
  CONNECT_STREAM;

  static ClientWire of(ClientProtocol protocol, MethodType type) {
    switch (protocol) {
      case GRPC_WEB:
        return GRPC_WEB;
      case CONNECT:
        return type == MethodType.UNARY ? CONNECT_UNARY : CONNECT_STREAM;
      default:
        return GRPC;
    }
  }

  /** The flag of the frame that ends the body, or 0 when none does. */
  int endFrameFlag() {
    return this == GRPC_WEB ? 0x80 : this == CONNECT_STREAM ? 0x02 : 0;
  }

  boolean isConnect() {
    return this == CONNECT_UNARY || this == CONNECT_STREAM;
  }
}
