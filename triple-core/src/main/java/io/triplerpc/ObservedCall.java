package io.triplerpc;

import java.net.SocketAddress;

/** A call or attempt as a {@link CallObserver} sees it. */
public interface ObservedCall {

  /** What was observed. */
  enum Kind {
    /** A client's call, from its start to the status its caller gets, across all its attempts. */
    CLIENT_CALL,
    /** One attempt of a client's call on one connection. */
    CLIENT_ATTEMPT,
    /** A call a server received. */
    SERVER_CALL
  }

  Kind kind();

  /** The method's full name, {@code pkg.Service/Method}: as the client asked for it, served or not. */
  String method();

  /**
   * Whether the method is known: on a client always; on a server, whether it serves it. Metrics should
   * collapse unknown names (any path a client sends) into one value.
   */
  boolean knownMethod();

  /** A client's target: {@code host:port}, or the cluster's name; null on a server. */
  String target();

  /** A server call's protocol: {@code grpc}, {@code grpc-web} or {@code connect}; null on a client. */
  String protocol();

  /** The other side's address, where known (a server's caller, an attempt's server); else null. */
  SocketAddress peer();

  /** For an attempt, how many attempts of its call came before it (0 for the first); else 0. */
  int previousAttempts();

  /** When it started, in {@link System#nanoTime()} terms. */
  long startNanos();

  /** How it ended; null until it did. */
  Status status();

  /** How long it took, in nanoseconds; 0 until it ended. */
  long durationNanos();

  /** Messages sent. Not counted for a client call: its attempts count them. */
  long messagesSent();

  /** Messages received. Not counted for a client call. */
  long messagesReceived();

  /** Bytes of the messages sent, compressed as they went on the wire, without framing. */
  long messageBytesSent();

  /** Bytes of the messages received, as they came on the wire (compressed if they were), without framing. */
  long messageBytesReceived();
}
