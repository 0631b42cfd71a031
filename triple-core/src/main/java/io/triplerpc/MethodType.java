package io.triplerpc;

/** The four kinds of RPC, by how many messages each side sends. */
public enum MethodType {
  /** One request, one response. */
  UNARY,
  /** A stream of requests, one response. */
  CLIENT_STREAMING,
  /** One request, a stream of responses. */
  SERVER_STREAMING,
  /** Streams both ways, independent of each other. */
  BIDI_STREAMING;

  /** Whether the client sends at most one message. */
  public boolean clientSendsOneMessage() {
    return this == UNARY || this == SERVER_STREAMING;
  }

  /** Whether the server sends exactly one message on success. */
  public boolean serverSendsOneMessage() {
    return this == UNARY || this == CLIENT_STREAMING;
  }
}
