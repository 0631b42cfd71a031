package io.triplerpc;

/** The wire protocol a {@link TripleClient} calls in; every Triple server speaks each of them. */
public enum ClientProtocol {

  /** gRPC over HTTP/2 (the default): what grpc-java, grpc-go and Apache Dubbo 3 servers answer. */
  GRPC,

  /**
   * gRPC-Web over HTTP/2 (or HTTP/1.1, {@link TripleClient.Builder#http1}): gRPC's messages with the trailers in the body, for servers and proxies that
   * answer gRPC-Web but not gRPC (Envoy's grpc_web filter, connect-go, Armeria).
   */
  GRPC_WEB,

  /**
   * The Connect protocol over HTTP/2 (or HTTP/1.1, {@link TripleClient.Builder#http1}): unary calls as a
   * plain POST of the message, or a GET for idempotent methods ({@link TripleClient.Builder#connectGet}) (errors as JSON),
   * streaming calls with prefixed messages and a JSON end of stream; what connect-go, connect-es and
   * Dubbo 3.3's Triple-over-HTTP serve.
   */
  CONNECT
}
