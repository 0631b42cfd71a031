package io.triplerpc;

/**
 * The serving status a {@link TripleServer} reports through the standard gRPC health service,
 * {@code grpc.health.v1.Health} (Check and Watch), which every server serves.
 *
 * <p>At start the server as a whole (the empty service name) and each of its services are SERVING;
 * {@link TripleServer#shutdown()} turns them all NOT_SERVING. The application may change a status at
 * any time, for example while a dependency is down; watchers see each change. Thread-safe.
 */
public interface HealthStatusManager {

  /** The status of a service, as health checks report it. */
  enum ServingStatus {
    SERVING,
    NOT_SERVING
  }

  /**
   * Sets the status of {@code service}, a service name as on the wire (such as
   * {@code "grpc.testing.TestService"}), or {@code ""} for the server as a whole.
   */
  void setStatus(String service, ServingStatus status);

  /** Forgets {@code service}: checks then answer NOT_FOUND and watchers SERVICE_UNKNOWN. */
  void clearStatus(String service);

  /**
   * Turns every known service NOT_SERVING and ignores later changes: the server is going away.
   * {@link TripleServer#shutdown()} calls it.
   */
  void enterTerminalState();
}
