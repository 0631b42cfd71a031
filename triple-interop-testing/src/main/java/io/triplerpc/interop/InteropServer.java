package io.triplerpc.interop;

import io.triplerpc.TripleServer;

/**
 * Serves {@code grpc.testing.TestService} until killed: {@code --port=N} (required),
 * {@code --host=ADDRESS} (default 127.0.0.1), {@code --use_tls=false}.
 */
public final class InteropServer {

  private InteropServer() {}

  /** A started interop server on {@code host:port} (0 for a free port). */
  public static TripleServer start(String host, int port) {
    return TripleServer.builder()
        .host(host)
        .port(port)
        .addService(TestService.class, new TestServiceImpl())
        .intercept(new EchoMetadataInterceptor())
        .build()
        .start();
  }

  public static void main(String[] args) throws Exception {
    TripleServer server;
    try {
      Flags flags = new Flags(args);
      flags.rejectTls();
      server = start(flags.get("host", "127.0.0.1"), Integer.parseInt(flags.require("port")));
    } catch (IllegalArgumentException e) {
      System.err.println("interop-server: " + e.getMessage());
      System.err.println("usage: interop-server.sh --port=N [--host=127.0.0.1] [--use_tls=false]");
      System.exit(2);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "interop-server-shutdown"));
    System.out.println("Triple interop server listening on " + server.localAddress().getHostString() + ":" + server.port());
    server.awaitTermination();
  }
}
