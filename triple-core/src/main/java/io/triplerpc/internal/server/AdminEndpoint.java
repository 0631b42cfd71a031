package io.triplerpc.internal.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.Status;
import io.triplerpc.TripleServer;
import io.triplerpc.internal.stream.ConnectionView;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.spi.AdminView;
import io.triplerpc.spi.ServerInfo;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A server's admin endpoint: a second, small server on its own port (loopback unless told otherwise) that
 * answers plain HTTP GETs, as Dubbo's QoS port does: {@code /offline} and {@code /online} take the server out of
 * rotation and back ({@link TripleServer#offline()}), {@code /state} tells its state as JSON, {@code /connections}
 * its open connections, {@code /calls} its calls per method, each {@link AdminView} its own JSON at
 * {@code /<name>}, and {@code /} all of them as one HTML page. Started after the server, shut down with it.
 */
final class AdminEndpoint {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> NO_STORE = Map.of("cache-control", "no-store");
  /** How long {@code /connections} waits for the event loops to describe their connections. */
  static final Duration CONNECTIONS_WAIT = Duration.ofSeconds(2);

  private final TripleServer admin;

  private AdminEndpoint(TripleServer admin) {
    this.admin = admin;
  }

  /**
   * Serves {@code server}'s admin endpoint at {@code address}, with {@code views} beside its own; with a null
   * {@code server} (and {@code info}), an endpoint of {@code views} alone ({@link io.triplerpc.TripleAdmin}).
   */
  static AdminEndpoint start(TripleServerImpl server, InetSocketAddress address, ServerInfo info,
      List<AdminView> views, AdminGuard guard) {
    Sections sections = new Sections(server, info, views);
    TripleServerBuilder builder = new TripleServerBuilder();
    builder.host(address.getHostString()).port(address.getPort());
    builder.ioThreads(1);
    builder.directExecutor();
    if (server != null) {
      builder.httpGet("/offline", guard.guard("/offline", request -> {
        server.offline();
        return text("OK\n");
      }));
      builder.httpGet("/online", guard.guard("/online", request -> {
        server.online();
        return text("OK\n");
      }));
    }
    builder.rootPage(guard.guard("/", request -> html(AdminPage.render(sections.all()))));
    for (String name : sections.names()) {
      builder.httpGet("/" + name, guard.guard("/" + name, request -> json(sections.one(name))));
    }
    return new AdminEndpoint(builder.build().start());
  }

  int port() {
    return admin.port();
  }

  /**
   * Checks {@code view}'s name against the endpoint's own paths and {@code others}' names.
   *
   * @throws IllegalArgumentException if malformed or taken
   */
  static void checkView(AdminView view, List<AdminView> others) {
    String name = java.util.Objects.requireNonNull(view.name(), "view.name()");
    if (!name.matches("[a-z0-9][a-z0-9-]*") || List.of("state", "connections", "calls", "offline", "online")
        .contains(name)) {
      throw new IllegalArgumentException("An admin view's name is lower-case letters, digits and -, and not one"
          + " of the endpoint's own (state, connections, calls, offline, online): " + name);
    }
    for (AdminView other : others) {
      if (other.name().equals(name)) {
        throw new IllegalArgumentException("Two admin views named " + name);
      }
    }
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

  private static HttpGetHandler.Response json(JsonNode body) throws JsonProcessingException {
    return new HttpGetHandler.Response(200, "application/json", JSON.writeValueAsBytes(body), NO_STORE);
  }

  private static HttpGetHandler.Response html(String page) {
    return new HttpGetHandler.Response(200, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8),
        NO_STORE);
  }

  /** What the endpoint shows, section by section: the server's own, then each view's. */
  static final class Sections {
    private final TripleServerImpl server;
    private final ServerInfo info;
    private final List<AdminView> views;

    Sections(TripleServerImpl server, ServerInfo info, List<AdminView> views) {
      this.server = server;
      this.info = info;
      this.views = List.copyOf(views);
    }

    List<String> names() {
      List<String> names = new ArrayList<>(server == null ? List.of() : List.of("state", "connections", "calls"));
      views.forEach(view -> names.add(view.name()));
      return names;
    }

    JsonNode one(String name) {
      switch (name) {
        case "state":
          return state(server, info);
        case "connections":
          return connections(server.transport());
        case "calls":
          return calls(server.callCounts());
        default:
          for (AdminView view : views) {
            if (view.name().equals(name)) {
              return JSON.valueToTree(view.snapshot());
            }
          }
          throw new IllegalArgumentException("No admin view " + name);
      }
    }

    /** Every section by name, in order. */
    Map<String, JsonNode> all() {
      Map<String, JsonNode> all = new java.util.LinkedHashMap<>();
      names().forEach(name -> all.put(name, one(name)));
      return all;
    }
  }

  /** {@code {"state": "online" | "offline" | "shutting down", "address", "port", "connections", "services"}}. */
  private static JsonNode state(TripleServerImpl server, ServerInfo info) {
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
    return state;
  }

  /**
   * {@code {"connections": [...], "unanswered": n}}: each open connection as its event loop describes it, waiting
   * at most {@link #CONNECTIONS_WAIT} for all of them; a connection whose loop did not answer in time counts in
   * {@code unanswered}, one that closed meanwhile is left out.
   */
  private static JsonNode connections(ServerTransport transport) {
    ObjectNode result = JSON.createObjectNode();
    ArrayNode list = result.putArray("connections");
    List<CompletableFuture<ConnectionView>> views = transport == null ? List.of() : transport.describeConnections();
    try {
      CompletableFuture.allOf(views.toArray(new CompletableFuture<?>[0]))
          .get(CONNECTIONS_WAIT.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Some loop did not answer, or a connection closed as it was asked: the others are shown.
    }
    long now = System.currentTimeMillis();
    int unanswered = 0;
    for (CompletableFuture<ConnectionView> future : views) {
      if (!future.isDone()) {
        unanswered++;
        continue;
      }
      ConnectionView view = future.getNow(null);
      if (view == null || future.isCompletedExceptionally()) {
        continue;
      }
      ObjectNode connection = list.addObject()
          .put("peer", view.peer())
          .put("protocol", view.protocol())
          .put("tls", view.tls())
          .put("streams", view.streams())
          .put("bytesIn", view.bytesIn())
          .put("bytesOut", view.bytesOut());
      if (!view.streamsByProtocol().isEmpty()) {
        ObjectNode byProtocol = connection.putObject("streamsByProtocol");
        new java.util.TreeMap<>(view.streamsByProtocol()).forEach(byProtocol::put);
      }
      if (view.openedAtMillis() > 0) {
        connection.put("openedAt", Instant.ofEpochMilli(view.openedAtMillis()).toString())
            .put("openForMillis", Math.max(0, now - view.openedAtMillis()));
      }
      if (view.idleMillis() >= 0) {
        connection.put("idleMillis", view.idleMillis());
      }
      if (view.flowControl() != null) {
        connection.putObject("flowControl")
            .put("inboundWindow", view.flowControl().inbound())
            .put("outboundWindow", view.flowControl().outbound());
      }
      if (view.keepAlive() != null) {
        ConnectionView.KeepAliveState keepAlive = view.keepAlive();
        ObjectNode node = connection.putObject("keepAlive")
            .put("pingsSent", keepAlive.pingsSent())
            .put("awaitingAck", keepAlive.awaitingAck())
            .put("sinceLastReadMillis", keepAlive.sinceLastReadMillis());
        if (keepAlive.sinceLastPingMillis() >= 0) {
          node.put("sinceLastPingMillis", keepAlive.sinceLastPingMillis());
        }
      }
    }
    result.put("unanswered", unanswered);
    return result;
  }

  /**
   * {@code {"methods": [{"method", "type", "inFlight", "started", "succeeded", "failed": {"CODE": n}}]}}: each
   * served method's calls since the server started (refused by a concurrency limit included).
   */
  private static JsonNode calls(List<MethodCounters.Snapshot> counts) {
    ObjectNode result = JSON.createObjectNode();
    ArrayNode methods = result.putArray("methods");
    for (MethodCounters.Snapshot count : counts) {
      ObjectNode method = methods.addObject()
          .put("method", count.method().fullMethodName())
          .put("type", count.method().type().name())
          .put("inFlight", count.inFlight())
          .put("started", count.started())
          .put("succeeded", count.succeeded());
      ObjectNode failed = method.putObject("failed");
      long[] byCode = count.endedByCode();
      for (int i = 0; i < byCode.length; i++) {
        Status.Code code = MethodCounters.Snapshot.code(i);
        if (code != Status.Code.OK && byCode[i] > 0) {
          failed.put(code.name(), byCode[i]);
        }
      }
    }
    return result;
  }
}
