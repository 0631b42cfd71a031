package io.triplerpc.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.triplerpc.CallObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.micrometer.testing.Ping;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * micrometer-registry-prometheus is an optional dependency: {@link TripleMetrics} loads, and its call
 * metrics and gauges record real calls, on a class path without it.
 */
class PrometheusIsOptionalTest {

  @Test
  void callMetricsWorkWithoutPrometheusOnTheClassPath() throws Exception {
    ClassLoader withoutPrometheus = new WithoutPrometheus();
    assertThrows(ClassNotFoundException.class,
        () -> Class.forName(PrometheusMeterRegistry.class.getName(), false, withoutPrometheus));
    // Loaded, verified and initialized there: a method body that needed Prometheus's classes would fail it.
    Class<?> metrics = Class.forName(TripleMetrics.class.getName(), true, withoutPrometheus);
    assertNotSame(TripleMetrics.class, metrics);
    // Called as an application calls it (reflection would resolve every method's signature, prometheus's too).
    Metrics app = (Metrics) Class.forName(App.class.getName(), true, withoutPrometheus).getConstructor().newInstance();
    MeterRegistry registry = new SimpleMeterRegistry();
    CallObserver serverMetrics = app.server(registry);
    CallObserver clientMetrics = app.client(registry);
    MetricsRecorded afterMetrics = new MetricsRecorded();
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PingService.class, new PingServiceImpl()).callObserver(serverMetrics).callObserver(afterMetrics)
        .build().start();
    try {
      app.bind(server, registry);
      try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port())
          .callObserver(clientMetrics).build()) {
        client.proxy(PingService.class).ping(Ping.newBuilder().setText("no prometheus").build());
      }
      afterMetrics.await(() -> {
        Timer served = registry.find("grpc.server.call.duration").timer();
        return served != null && served.count() == 1;
      }, "the server saw the call end");
      assertEquals(1, registry.get("grpc.client.call.duration").timer().count());
      assertEquals(1, registry.get("triple.server.connections").gauge().value(), 1, "bound, and read");
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  /** What an application does with {@link TripleMetrics}; the test's loader and the other share it. */
  public interface Metrics {
    CallObserver server(MeterRegistry registry);

    CallObserver client(MeterRegistry registry);

    void bind(TripleServer server, MeterRegistry registry);
  }

  /** An application's calls of {@link TripleMetrics}, defined by the loader without Prometheus. */
  public static final class App implements Metrics {

    @Override
    public CallObserver server(MeterRegistry registry) {
      return TripleMetrics.server(registry);
    }

    @Override
    public CallObserver client(MeterRegistry registry) {
      return TripleMetrics.client(registry);
    }

    @Override
    public void bind(TripleServer server, MeterRegistry registry) {
      TripleMetrics.bind(server, registry);
    }
  }

  /**
   * The test's class path less micrometer-registry-prometheus and Prometheus's client library. It defines
   * this module's main classes and {@link App} itself, so that the classes they need are looked up here;
   * everything else (core, Micrometer, the rest of the tests) comes from the test's own loader.
   */
  private static final class WithoutPrometheus extends ClassLoader {

    /** Where this module's main classes are: target/classes, or the module's jar. */
    private final String mainClasses =
        TripleMetrics.class.getProtectionDomain().getCodeSource().getLocation().toString();

    WithoutPrometheus() {
      super(TripleMetrics.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("io.micrometer.prometheusmetrics.") || name.startsWith("io.prometheus.")) {
        throw new ClassNotFoundException(name + " (not on this class path)");
      }
      String resource = name.replace('.', '/') + ".class";
      URL url = name.startsWith("io.triplerpc.micrometer.") ? getParent().getResource(resource) : null;
      if (url == null || !(url.toString().contains(mainClasses) || name.equals(App.class.getName()))) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          try (InputStream in = url.openStream()) {
            byte[] bytes = in.readAllBytes();
            loaded = defineClass(name, bytes, 0, bytes.length);
          } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
          }
        }
        if (resolve) {
          resolveClass(loaded);
        }
        return loaded;
      }
    }
  }
}
