package io.triplerpc.spring.boot;

import io.triplerpc.TripleServer;
import org.springframework.context.ApplicationEvent;

/**
 * Published once the application's Triple server listens (and has registered, when it registers). Its
 * port is also the property {@code local.triple.server.port}.
 */
public final class TripleServerStartedEvent extends ApplicationEvent {

  private static final long serialVersionUID = 1L;

  /** For the auto-configuration. */
  public TripleServerStartedEvent(TripleServer server) {
    super(server);
  }

  /** The server that started. */
  public TripleServer getServer() {
    return (TripleServer) getSource();
  }

  /** The port it listens on. */
  public int port() {
    return getServer().port();
  }
}
