package io.triplerpc.spring.boot.internal;

import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.TripleServerStartedEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * Starts the server when the application context has refreshed and stops it gracefully when the context
 * closes: {@link TripleServer#shutdown()} withdraws it from its registry (waiting for the registry), then
 * sends GOAWAY; calls in flight then have the grace period to finish before {@link TripleServer#shutdownNow()}
 * closes what is left. It starts after Spring's web server and stops before it.
 */
public final class TripleServerLifecycle implements SmartLifecycle, DisposableBean {

  /** Where the server is in its life; read by the health indicator. */
  public enum State {
    /** Built, not listening yet. */
    NEW,
    /** Listening and serving. */
    SERVING,
    /** Shutting down: withdrawn, GOAWAY sent, calls in flight finishing. */
    DRAINING,
    /** Every connection closed. */
    TERMINATED
  }

  /** The property holding the port the server listens on, once it does. */
  public static final String PORT_PROPERTY = "local.triple.server.port";

  private static final Logger log = LoggerFactory.getLogger(TripleServerLifecycle.class);
  private static final String PORTS_SOURCE = "triple.server.ports";

  private final TripleServer server;
  private final Duration gracePeriod;
  private final ApplicationEventPublisher publisher;
  private final ConfigurableEnvironment environment;
  private final List<String> services;
  /** Written by the threads that start and stop the server. */
  private volatile State state = State.NEW;

  /** @param services the names on the wire of the services exported from beans */
  public TripleServerLifecycle(TripleServer server, List<String> services, Duration gracePeriod,
      ApplicationEventPublisher publisher, ConfigurableEnvironment environment) {
    this.server = server;
    this.services = List.copyOf(services);
    this.gracePeriod = gracePeriod;
    this.publisher = publisher;
    this.environment = environment;
  }

  /** The server this lifecycle runs. */
  public TripleServer server() {
    return server;
  }

  /** The names on the wire of the services exported from beans, in the order they were added. */
  public List<String> services() {
    return services;
  }

  /** Where the server is in its life. */
  public State state() {
    return state;
  }

  @Override
  public void start() {
    if (state != State.NEW) {
      return;
    }
    try {
      server.start();
    } catch (RuntimeException e) {
      throw new IllegalStateException("The Triple server did not start (triple.server.host, triple.server.port): "
          + e.getMessage(), e);
    }
    state = State.SERVING;
    keepAlive();
    publishPort(server.port());
    publisher.publishEvent(new TripleServerStartedEvent(server));
  }

  @Override
  public void stop(Runnable callback) {
    if (state != State.SERVING) {
      callback.run();
      return;
    }
    state = State.DRAINING;
    // Other beans of this phase stop meanwhile; Spring waits for the callback (at most
    // spring.lifecycle.timeout-per-shutdown-phase).
    Thread drain = new Thread(() -> {
      try {
        drain();
      } finally {
        callback.run();
      }
    }, "triple-server-shutdown");
    drain.start();
  }

  @Override
  public void stop() {
    if (state != State.SERVING) {
      return;
    }
    state = State.DRAINING;
    drain();
  }

  private void drain() {
    long start = System.nanoTime();
    try {
      server.shutdown();
      if (server.awaitTermination(gracePeriod)) {
        log.info("Triple server stopped; its calls drained in {} ms", (System.nanoTime() - start) / 1_000_000);
      } else {
        log.warn("Triple server calls still in flight after the grace period of {}; closing their connections",
            gracePeriod);
        server.shutdownNow();
        server.awaitTermination(Duration.ofSeconds(5));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.shutdownNow();
    } finally {
      state = State.TERMINATED;
    }
  }

  @Override
  public boolean isRunning() {
    State now = state;
    return now == State.SERVING || now == State.DRAINING;
  }

  @Override
  public int getPhase() {
    // Spring Boot's web server stops gracefully in DEFAULT_PHASE - 1024 and starts in DEFAULT_PHASE - 2048.
    return SmartLifecycle.DEFAULT_PHASE - 512;
  }

  /** Closes what a context that never stopped its lifecycle left open. */
  @Override
  public void destroy() {
    if (!server.isTerminated() && state != State.NEW) {
      server.shutdownNow();
    }
    state = State.TERMINATED;
  }

  /**
   * The server's threads are daemons, and an application without a web server has no other thread left
   * once {@code main} returns: this one keeps the JVM up until the server has terminated, as Tomcat's
   * await thread does for a web application.
   */
  private void keepAlive() {
    Thread keepAlive = new Thread(() -> {
      try {
        server.awaitTermination();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "triple-server-await-" + server.port());
    keepAlive.setDaemon(false);
    keepAlive.start();
  }

  private void publishPort(int port) {
    PropertySource<?> source = environment.getPropertySources().get(PORTS_SOURCE);
    if (source instanceof MapPropertySource map) {
      map.getSource().put(PORT_PROPERTY, port);
      return;
    }
    Map<String, Object> ports = new HashMap<>();
    ports.put(PORT_PROPERTY, port);
    environment.getPropertySources().addFirst(new MapPropertySource(PORTS_SOURCE, ports));
  }
}
