package io.triplerpc;

/** The wire protocol a {@link TripleClient} calls in; every Triple server speaks each of them. */
public enum ClientProtocol {

  /** gRPC over HTTP/2 (the default): what grpc-java, grpc-go and Apache Dubbo 3 servers answer. */
  GRPC,

  /**
   * gRPC-Web over HTTP/2: gRPC's messages with the trailers in the body, for servers and proxies that
   * answer gRPC-Web but not gRPC (Envoy's grpc_web filter, connect-go, Armeria).
   */
  GRPC_WEB
}
