package io.triplerpc.spring.boot.internal;

import io.triplerpc.TripleServer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * UP while the server serves; DOWN before it listens and from the moment its shutdown begins (so that a
 * load balancer polling readiness turns away while calls drain). Details: state, port, open connections.
 */
public final class ServerHealth {

  private ServerHealth() {
  }

  /** The server's health now. */
  public static HealthReport check(TripleServerLifecycle lifecycle) {
    TripleServerLifecycle.State state = lifecycle.state();
    TripleServer server = lifecycle.server();
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("state", state.name());
    if (state != TripleServerLifecycle.State.NEW) {
      details.put("port", server.port());
      details.put("connections", server.openConnections());
    }
    return new HealthReport(state == TripleServerLifecycle.State.SERVING && !server.isTerminated(), details, null);
  }
}
