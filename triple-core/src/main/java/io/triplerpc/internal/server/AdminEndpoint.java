package io.triplerpc.internal.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.TripleServer;
import io.triplerpc.spi.ServerInfo;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * A server's admin endpoint: a second, small server on its own port (loopback unless told otherwise) that
 * answers plain HTTP GETs, as Dubbo's QoS port does: {@code /offline} and {@code /online} take the server out of
 * rotation and back ({@link TripleServer#offline()}), {@code /state} tells its state as JSON. Started after the
 * server, shut down with it.
 */
final class AdminEndpoint {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> NO_STORE = Map.of("cache-control", "no-store");

  private final TripleServer admin;

  private AdminEndpoint(TripleServer admin) {
    this.admin = admin;
  }

  /** Serves {@code server}'s admin endpoint at {@code address}. */
  static AdminEndpoint start(TripleServerImpl server, InetSocketAddress address, ServerInfo info) {
    TripleServer admin = TripleServer.builder()
        .host(address.getHostString())
        .port(address.getPort())
        .ioThreads(1)
        .directExecutor()
        .httpGet("/offline", request -> {
          server.offline();
          return text("OK\n");
        })
        .httpGet("/online", request -> {
          server.online();
          return text("OK\n");
        })
        .httpGet("/state", request -> state(server, info))
        .build()
        .start();
    return new AdminEndpoint(admin);
  }

  int port() {
    return admin.port();
  }

  void shutdown() {
    admin.shutdownNow();
  }

  void awaitTermination(Duration timeout) throws InterruptedException {
    admin.awaitTermination(timeout);
  }

  private static HttpGetHandler.Response text(String body) {
    return new HttpGetHandler.Response(200, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8),
        NO_STORE);
  }

  /** {@code {"state": "online" | "offline" | "shutting down", "address", "port", "connections", "services"}}. */
  private static HttpGetHandler.Response state(TripleServerImpl server, ServerInfo info) throws JsonProcessingException {
    ObjectNode state = JSON.createObjectNode()
        .put("state", server.isShuttingDown() ? "shutting down" : server.isOffline() ? "offline" : "online")
        .put("address", info.localAddress().getHostString())
        .put("port", info.localAddress().getPort())
        .put("connections", server.openConnections());
    ArrayNode services = state.putArray("services");
    for (ServerInfo.Service service : info.services()) {
      ObjectNode described = services.addObject().put("name", service.name());
      if (!service.version().isEmpty()) {
        described.put("version", service.version());
      }
      if (!service.group().isEmpty()) {
        described.put("group", service.group());
      }
      described.putPOJO("methods", service.methods());
    }
    return new HttpGetHandler.Response(200, "application/json", JSON.writeValueAsBytes(state), NO_STORE);
  }
}
