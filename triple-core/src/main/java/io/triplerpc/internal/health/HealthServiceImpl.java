package io.triplerpc.internal.health;

import io.triplerpc.HealthStatusManager;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.health.proto.HealthCheckRequest;
import io.triplerpc.internal.health.proto.HealthCheckResponse;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code grpc.health.v1.Health}: Check answers the current status (NOT_FOUND for a service nobody set);
 * Watch answers it at once and then every change, until the client cancels. It is also the server's
 * {@link HealthStatusManager}, so the statuses set there are the ones served.
 */
public final class HealthServiceImpl implements HealthService, HealthStatusManager {

  private static final HealthCheckResponse SERVING = response(HealthCheckResponse.ServingStatus.SERVING);
  private static final HealthCheckResponse NOT_SERVING = response(HealthCheckResponse.ServingStatus.NOT_SERVING);
  private static final HealthCheckResponse SERVICE_UNKNOWN = response(HealthCheckResponse.ServingStatus.SERVICE_UNKNOWN);

  // One lock for statuses and watchers: a watcher registers and reads the current status atomically,
  // and sees changes in the order they were made.
  private final Object lock = new Object();
  private final Map<String, Boolean> statuses = new HashMap<>();
  private final Map<String, Set<StreamObserver<HealthCheckResponse>>> watchers = new HashMap<>();
  private boolean terminal;

  private static HealthCheckResponse response(HealthCheckResponse.ServingStatus status) {
    return HealthCheckResponse.newBuilder().setStatus(status).build();
  }

  @Override
  public void setStatus(String service, HealthStatusManager.ServingStatus status) {
    Objects.requireNonNull(service, "service");
    boolean serving = Objects.requireNonNull(status, "status") == HealthStatusManager.ServingStatus.SERVING;
    synchronized (lock) {
      if (terminal) {
        return;
      }
      update(service, serving);
    }
  }

  @Override
  public void clearStatus(String service) {
    Objects.requireNonNull(service, "service");
    synchronized (lock) {
      if (terminal) {
        return;
      }
      if (statuses.remove(service) != null) {
        notifyWatchers(service, SERVICE_UNKNOWN);
      }
    }
  }

  @Override
  public void enterTerminalState() {
    synchronized (lock) {
      terminal = true;
      for (String service : statuses.keySet().toArray(new String[0])) {
        update(service, false);
      }
    }
  }

  private void update(String service, boolean serving) {
    Boolean previous = statuses.put(service, serving);
    if (previous == null || previous != serving) {
      notifyWatchers(service, serving ? SERVING : NOT_SERVING);
    }
  }

  private void notifyWatchers(String service, HealthCheckResponse response) {
    Set<StreamObserver<HealthCheckResponse>> observers = watchers.get(service);
    if (observers == null) {
      return;
    }
    for (StreamObserver<HealthCheckResponse> observer : List.copyOf(observers)) {
      try {
        observer.onNext(response);
      } catch (RuntimeException e) {
        // Cancelled meanwhile: its cancel handler removes it.
        observers.remove(observer);
      }
    }
  }

  @Override
  public HealthCheckResponse check(HealthCheckRequest request) {
    Boolean serving;
    synchronized (lock) {
      serving = statuses.get(request.getService());
    }
    if (serving == null) {
      throw Status.NOT_FOUND.withDescription("unknown service " + request.getService()).asException();
    }
    return serving ? SERVING : NOT_SERVING;
  }

  @Override
  public void watch(HealthCheckRequest request, StreamObserver<HealthCheckResponse> responses) {
    String service = request.getService();
    if (responses instanceof ServerCallStreamObserver) {
      ((ServerCallStreamObserver<HealthCheckResponse>) responses).setOnCancelHandler(() -> {
        synchronized (lock) {
          Set<StreamObserver<HealthCheckResponse>> observers = watchers.get(service);
          if (observers != null && observers.remove(responses) && observers.isEmpty()) {
            watchers.remove(service);
          }
        }
      });
    }
    synchronized (lock) {
      Boolean serving = statuses.get(service);
      responses.onNext(serving == null ? SERVICE_UNKNOWN : serving ? SERVING : NOT_SERVING);
      watchers.computeIfAbsent(service, k -> new LinkedHashSet<>()).add(responses);
    }
  }
}
