package io.triplerpc.interop;

import io.triplerpc.TripleServer;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.LeakDetectionExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One provider of {@link ClusterFaultScheduleTest}'s cluster, in a JVM of its own: serves {@link Ledger} on
 * 127.0.0.1, registers one instance in the registry server and one in ZooKeeper under the address
 * consumers should use (the test's fault proxy in front of it), and appends a line to its execution log
 * for every call it runs, before answering. SIGTERM stops it gracefully: unregister, drain, exit, with
 * a last leak check; SIGKILL leaves its registrations to expire.
 *
 * <p>Arguments: {@code name port advertisedPort registryPort zooKeeperConnectString executionLog
 * stopReport}. The stop report, written at the end of a graceful stop, lists the leaks found (lines
 * starting {@code LEAK:}), then {@code stopped}: a file, as the JVM's piped output may lose its last
 * lines when the process exits.
 */
public final class ClusterProvider implements Ledger {

  /** The application every provider is an instance of. */
  static final String APPLICATION = "cluster-ledger";
  /** What a provider serves, as the registry stores it. */
  static final MetadataInfo METADATA = MetadataInfo.of(APPLICATION,
      List.of(new ServerInfo.Service("triple.cluster.Ledger", List.of("read", "append"), "hessian2", "", "")));
  /** How long the registry server keeps a lease its provider stopped renewing (it heartbeats each second). */
  static final Duration LEASE_TTL = Duration.ofSeconds(3);
  /** How long ZooKeeper keeps a session its provider stopped renewing. */
  static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);
  /** How long a call takes to run: long enough that a graceful stop has calls to drain. */
  private static final long WORK_MILLIS = 5;

  private static final Logger log = LoggerFactory.getLogger(ClusterProvider.class);

  private final String name;
  private final Writer executions;
  private final Path stopReport;
  private final ScheduledExecutorService work =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ledger-work");
        thread.setDaemon(true);
        return thread;
      });

  private ClusterProvider(String name, Writer executions, Path stopReport) {
    this.name = name;
    this.executions = executions;
    this.stopReport = stopReport;
  }

  public static void main(String[] args) throws Exception {
    // Installs the recording leak detector before any Netty buffer class is loaded, so a leak in this
    // JVM is reported in its output as "LEAK:" (the test reads it).
    LeakDetectionExtension.collectLeaks();
    String name = args[0];
    int port = Integer.parseInt(args[1]);
    int advertisedPort = Integer.parseInt(args[2]);
    int registryPort = Integer.parseInt(args[3]);
    String zooKeeper = args[4];
    Writer executions = Files.newBufferedWriter(Path.of(args[5]), StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    Path stopReport = Path.of(args[6]);
    ClusterProvider provider = new ClusterProvider(name, executions, stopReport);

    TripleServer server = TripleServer.builder().host("127.0.0.1").port(port)
        .addService(Ledger.class, provider).build().start();
    RemoteRegistry registryServer = RemoteRegistry.builder("127.0.0.1", registryPort)
        .leaseTtl(LEASE_TTL).heartbeatInterval(Duration.ofSeconds(1))
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1)).build();
    ZooKeeperRegistry zooKeeperRegistry = ZooKeeperRegistry.builder(zooKeeper).sessionTimeout(SESSION_TIMEOUT)
        .connectionTimeout(SESSION_TIMEOUT).build();
    ServiceInstance instance = ServiceInstance.of(APPLICATION, "127.0.0.1", advertisedPort, METADATA.revision());
    List<Registry> registries = List.of(registryServer, zooKeeperRegistry);
    // Before the registrations: once a consumer can find this provider, a SIGTERM stops it gracefully.
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        provider.stop(server, registries, instance);
      } finally {
        stopped.countDown();
      }
    }, "graceful-stop"));
    for (Registry registry : registries) {
      registry.publishMetadata(METADATA).get(30, TimeUnit.SECONDS);
      registry.map("triple.cluster.Ledger", APPLICATION).get(30, TimeUnit.SECONDS);
      registry.register(instance).get(30, TimeUnit.SECONDS);
    }
    log.info("provider {} serves on {} as {}", name, port, instance.address());

    stopped.await();
  }

  /** A graceful stop: consumers hear of it first, then the calls in flight finish, then the port closes. */
  private void stop(TripleServer server, List<Registry> registries, ServiceInstance instance) {
    try {
      for (Registry registry : registries) {
        registry.unregister(instance).get(5, TimeUnit.SECONDS);
      }
      server.shutdown();
      if (!server.awaitTermination(Duration.ofSeconds(10))) {
        log.error("provider {}: calls still running 10 s after shutdown", name);
      }
      registries.forEach(Registry::close);
      synchronized (this) {
        executions.close();
      }
      List<String> report = new ArrayList<>();
      for (String leak : LeakDetectionExtension.collectLeaks()) {
        log.error("{}", leak);
        report.add(leak.replace('\n', ' '));
      }
      report.add("stopped");
      Files.write(stopReport, report, StandardCharsets.UTF_8);
      log.info("provider {} stopped", name);
    } catch (Exception e) {
      log.error("provider {}: graceful stop failed", name, e);
      try {
        // Without "stopped" at its end, the report fails the test, and says why.
        Files.write(stopReport, List.of("graceful stop failed: " + e), StandardCharsets.UTF_8);
      } catch (IOException unwritable) {
        e.addSuppressed(unwritable);
      }
    }
  }

  @Override
  public CompletableFuture<String> read(String callId) {
    return run(callId, "read");
  }

  @Override
  public CompletableFuture<String> append(String callId) {
    return run(callId, "append");
  }

  private CompletableFuture<String> run(String callId, String method) {
    record(callId, method);
    CompletableFuture<String> done = new CompletableFuture<>();
    work.schedule(() -> done.complete(name), WORK_MILLIS, TimeUnit.MILLISECONDS);
    return done;
  }

  /** Writes the execution down before anything answers the call, so a kill cannot hide a run that was answered. */
  private synchronized void record(String callId, String method) {
    try {
      executions.write(callId + ' ' + method + ' ' + name + ' ' + System.currentTimeMillis() + '\n');
      executions.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
