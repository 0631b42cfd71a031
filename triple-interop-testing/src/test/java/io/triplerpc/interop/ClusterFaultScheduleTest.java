package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.registry.server.RegistryServer;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import io.triplerpc.registry.zookeeper.ZooKeeperSessions;
import io.triplerpc.testing.AwaitPeers;
import io.triplerpc.testing.FaultProxy;
import io.triplerpc.testing.Signal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster that loses machines while calls go on (issue 36, part 2). Three providers, each in its own
 * JVM ({@link ClusterProvider}) behind a {@link FaultProxy}, registered both in Triple's registry server
 * (through a proxy of their own) and in a three-member ZooKeeper ensemble; two consumers in this JVM,
 * one discovering through each, calling an idempotent and a non-idempotent method with a deadline
 * ({@link ClusterCalls}).
 *
 * <p>One round of faults, each injected, awaited until it took effect (a process exited, a directory
 * lost an instance, calls failed or came back slowly, a leader was elected, a session was replaced),
 * healed, and followed until calls succeed again: a provider killed with SIGKILL; a network partition
 * and a slow link between the consumers and a provider; a partition between a provider and the
 * registry server; the registry server restarted; the ZooKeeper leader killed; the consumer's ZooKeeper
 * session expired; a provider stopped gracefully with SIGTERM. Each stopped provider is replaced by a
 * new one; the graceful stop comes last, so both directories must still follow changes after all the
 * rest.
 *
 * <p>Invariants, checked from the JVMs' logs at the end ({@link ClusterLogs}): every call ended within
 * its deadline plus {@link #SLACK}, OK or with UNAVAILABLE, DEADLINE_EXCEEDED or CANCELLED and a
 * message; every answered call ran on the provider that answered; no {@code append} ran twice; after
 * each fault, every call started more than {@link #RECOVERY_BOUND} after it healed (or after the
 * provider's process exited) succeeded; no provider JVM reported a leak at PARANOID (this JVM's
 * leaks fail the class through {@code LeakDetectionExtension}). {@code -Dtriple.clusterFaults.rounds=N}
 * runs N rounds: the long schedule, {@code scripts/cluster-faults.sh}. Each run writes its table to
 * {@code target/cluster-faults/summary.md}, beside the logs.
 */
class ClusterFaultScheduleTest {

  private static final Logger log = LoggerFactory.getLogger(ClusterFaultScheduleTest.class);

  /** Every call's deadline. */
  static final Duration DEADLINE = Duration.ofMillis(1_500);
  /** How far past its deadline a call may end: timer and scheduling latency on a loaded 2-core machine. */
  static final Duration SLACK = Duration.ofMillis(500);
  /** After a fault heals (or a process has exited), every call started later than this succeeds. */
  static final Duration RECOVERY_BOUND = Duration.ofSeconds(10);
  /** How many calls in a row, per consumer, must succeed before a fault counts as recovered from. */
  private static final int STREAK = 30;
  /** Each consumer starts a read and an append this often. */
  private static final Duration PERIOD = Duration.ofMillis(50);
  /** The slow link's delay, each way: slow, but within the deadline. */
  private static final Duration SLOW = Duration.ofMillis(400);
  /** How many calls through a partition must fail on each consumer before it heals. */
  private static final int PARTITIONED_CALLS = 10;
  private static final int PROVIDERS = 3;
  private static final int ROUNDS = Integer.getInteger("triple.clusterFaults.rounds", 1);
  private static final Path LOGS = Path.of("target", "cluster-faults");
  /** ZooKeeper's tick: sessions between 1 s and 10 s, so a dead provider's session can end in 2 s. */
  private static final int TICK_MILLIS = 500;
  private static final String SERVICE = "triple.cluster.Ledger";

  /** Fired when a call ends, a directory changes, or the consumer's ZooKeeper connection changes state. */
  private final Signal signal = new Signal();
  private final List<Provider> providers = new ArrayList<>();
  private final List<Provider> everyProvider = new ArrayList<>();
  /** The providers stopped with SIGTERM, whose last leak check must have run. */
  private final List<Provider> stoppedGracefully = new ArrayList<>();
  private final List<Step> steps = new ArrayList<>();
  private final List<ClusterCalls> consumers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  private TestingCluster ensemble;
  private RegistryServer registry;
  private int registryPort;
  private Instances viaRegistry;
  private Instances viaZooKeeper;
  private CuratorFramework consumerSession;
  private int providersStarted;

  /**
   * A provider JVM, the proxy in front of it (whose address it registers), and the proxy through which
   * it reaches the registry server.
   */
  private record Provider(String name, int port, FaultProxy proxy, FaultProxy toRegistry, JavaProcess process,
      Path executions, Path stopReport) {}

  /**
   * One fault of the schedule, of a kind, on what: when it was injected, took effect and healed, in
   * {@link System#nanoTime()}. It lasts until the next one is injected, and a call that ends meanwhile
   * counts against it (each fault waits until the calls started before it recovered have ended).
   */
  private record Step(String kind, String on, long injected, long effect, long healed) {}

  /** How many instances of the service a consumer's directory holds, as its discovery observer hears. */
  private final class Instances implements DiscoveryObserver {
    /** Every count heard, with when. */
    final List<long[]> history = new CopyOnWriteArrayList<>();
    volatile int count;

    @Override
    public void instancesChanged(String service, String version, String group, int instances) {
      if (SERVICE.equals(service)) {
        count = instances;
        history.add(new long[] {System.nanoTime(), instances});
        signal.fire();
      }
    }

    int lowestSince(long nanos) {
      return history.stream().filter(h -> h[0] - nanos >= 0).mapToInt(h -> (int) h[1]).min().orElse(count);
    }
  }

  @AfterEach
  void stopEverything() throws Exception {
    for (ClusterCalls calls : consumers) {
      calls.close();
    }
    clients.forEach(TripleClient::close);
    for (Provider provider : everyProvider) {
      provider.process().close();
      provider.proxy().close();
      provider.toRegistry().close();
    }
    if (registry != null) {
      registry.shutdownNow();
      registry.awaitTermination(Duration.ofSeconds(10));
    }
    if (ensemble != null) {
      ensemble.close();
    }
  }

  @Test
  void callsEndInTimeRunAtMostOnceAndRecoverWhileMachinesDieAndTheNetworkSplits() throws Exception {
    Files.createDirectories(LOGS);
    ensemble = new TestingCluster(spec(), spec(), spec());
    ensemble.start();
    registry = RegistryServer.builder().host("127.0.0.1").port(0).leaseTtl(ClusterProvider.LEASE_TTL).build().start();
    registryPort = registry.port();
    for (int i = 0; i < PROVIDERS; i++) {
      providers.add(startProvider());
    }
    viaRegistry = new Instances();
    viaZooKeeper = new Instances();
    ClusterCalls registryCalls = consumer("registry-consumer", Discovery.using(
        RemoteRegistry.builder("127.0.0.1", registryPort).reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
            .build()).closeRegistryWithClient(true), viaRegistry);
    ZooKeeperRegistry zooKeeper = ZooKeeperRegistry.builder(ensemble.getConnectString())
        .sessionTimeout(Duration.ofSeconds(5)).build();
    consumerSession = ZooKeeperSessions.client(zooKeeper);
    consumerSession.getConnectionStateListenable().addListener((client, state) -> signal.fire());
    ClusterCalls zooKeeperCalls =
        consumer("zookeeper-consumer", Discovery.using(zooKeeper).closeRegistryWithClient(true), viaZooKeeper);
    // Warm-up, outside the logs: each consumer's first calls wait for discovery and connect to every
    // provider, and this JVM loads and compiles the call path; the faults are measured after that.
    List<Ledger> patient = clients.stream()
        .map(client -> client.proxy(Ledger.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30)))).toList();
    for (Ledger ledger : patient) {
      ledger.read("warm-up").get(60, TimeUnit.SECONDS);
    }
    awaitInstances(PROVIDERS);
    for (Ledger ledger : patient) {
      for (int i = 0; i < 2 * PROVIDERS; i++) {
        ledger.read("warm-up").get(60, TimeUnit.SECONDS);
      }
    }
    long started = System.nanoTime();
    registryCalls.start(PERIOD);
    zooKeeperCalls.start(PERIOD);
    awaitRecovery("start-up", started);

    for (int round = 0; round < ROUNDS; round++) {
      providerKilled();
      partition();
      slowLink();
      registryPartition();
      registryRestarted();
      zooKeeperLeaderKilled();
      consumerSessionExpired();
      providerStopped();
    }

    for (ClusterCalls calls : consumers) {
      calls.stop();
    }
    signal.await(() -> consumers.stream().allMatch(c -> c.inFlight() == 0), DEADLINE.plus(SLACK).multipliedBy(2),
        "every call started has ended");
    for (ClusterCalls calls : consumers) {
      calls.close(); // Flushes the call logs.
    }
    // Leaks, as Netty reported them while each provider ran (its output) and as the last check of a
    // graceful stop found them (its stop report).
    List<String> leaks = new ArrayList<>();
    for (Provider provider : providers) {
      provider.process().terminate();
      stoppedGracefully.add(provider);
    }
    for (Provider provider : everyProvider) {
      provider.process().onExit().get(60, TimeUnit.SECONDS);
      ClusterLogs.leaks(provider.process().output()).forEach(leak -> leaks.add(provider.name() + ": " + leak));
    }
    for (Provider provider : stoppedGracefully) {
      assertEquals(143, provider.process().onExit().get(), provider.name() + " exit code after SIGTERM");
      assertTrue(Files.exists(provider.stopReport()), provider.name() + " stopped gracefully, its last leak check done:\n"
          + provider.process().output());
      String report = Files.readString(provider.stopReport());
      assertTrue(report.endsWith("stopped\n"), provider.name() + "'s stop report: " + report);
      ClusterLogs.leaks(report).forEach(leak -> leaks.add(provider.name() + ": " + leak));
    }

    ClusterLogs.Report report = ClusterLogs.check(
        consumers.stream().map(c -> LOGS.resolve(c.name() + ".calls")).toList(),
        everyProvider.stream().map(Provider::executions).toList(), DEADLINE, SLACK);
    String table = table(report);
    Files.writeString(LOGS.resolve("summary.md"), table);
    log.info("cluster faults, {} round(s):\n{}", ROUNDS, table);

    assertEquals(List.of(), report.violations(), "invariants broken, see " + LOGS.toAbsolutePath());
    assertEquals(List.of(), leaks, "leaks reported by the providers");
    for (int i = 0; i < steps.size(); i++) {
      long recovery = recoveryNanos(i);
      assertTrue(recovery <= RECOVERY_BOUND.toNanos(), steps.get(i).kind() + ": calls failed until "
          + TimeUnit.NANOSECONDS.toMillis(recovery) + " ms after it healed, more than " + RECOVERY_BOUND);
    }
    assertTrue(report.calls() > 0 && report.executions() > 0, "calls were made and run");
  }

  // ---------------------------------------------------------------------------------------------------
  // The faults. Each one: inject, wait for its effect, heal, wait until calls succeed again.

  private void providerKilled() throws Exception {
    Provider victim = providers.remove(0);
    long injected = System.nanoTime();
    victim.process().kill();
    victim.process().onExit().get(30, TimeUnit.SECONDS);
    long exited = System.nanoTime();
    // Its lease and its ZooKeeper session run out; both directories drop it.
    awaitInstances(providers.size());
    steps.add(new Step("provider killed (SIGKILL)", victim.name(), injected, exited, exited));
    awaitRecovery("a provider killed", exited);
    replace();
  }

  private void providerStopped() throws Exception {
    Provider victim = providers.remove(0);
    long injected = System.nanoTime();
    victim.process().terminate();
    awaitInstances(providers.size());
    long unregistered = System.nanoTime();
    victim.process().onExit().get(30, TimeUnit.SECONDS);
    stoppedGracefully.add(victim);
    steps.add(new Step("provider stopped gracefully (SIGTERM)", victim.name(), injected, unregistered, injected));
    awaitRecovery("a provider stopped", injected);
    replace();
  }

  private void partition() {
    Provider victim = providers.get(0);
    long injected = System.nanoTime();
    victim.proxy().pause();
    signal.await(() -> consumers.stream().allMatch(c -> failedSince(c, injected) >= PARTITIONED_CALLS),
        Duration.ofSeconds(30), PARTITIONED_CALLS + " calls through the partition failed on each consumer");
    long effect = System.nanoTime();
    victim.proxy().pass();
    long healed = System.nanoTime();
    steps.add(new Step("network partition, consumers to a provider", victim.name(), injected, effect, healed));
    awaitRecovery("a partition", healed);
  }

  private void slowLink() {
    Provider victim = providers.get(0);
    long injected = System.nanoTime();
    victim.proxy().delay(FaultProxy.Direction.BOTH, SLOW);
    signal.await(() -> consumers.stream().allMatch(c -> c.calls().stream().anyMatch(call ->
            call.startNanos() - injected >= 0 && call.provider().equals(victim.name())
                && call.endNanos() - call.startNanos() >= SLOW.toNanos() * 2)),
        Duration.ofSeconds(30), "a call over the slow link came back slowly on each consumer");
    long effect = System.nanoTime();
    victim.proxy().delay(FaultProxy.Direction.BOTH, Duration.ZERO);
    long healed = System.nanoTime();
    steps.add(new Step("slow link, consumers to a provider, +" + SLOW.toMillis() + " ms each way", victim.name(),
        injected, effect, healed));
    awaitRecovery("a slow link", healed);
  }

  private void registryPartition() {
    Provider victim = providers.get(0);
    long injected = System.nanoTime();
    victim.toRegistry().pause();
    // Its heartbeats stop arriving; the lease runs out and the registry server pushes the removal. The
    // provider itself still serves, and the ZooKeeper consumer still calls it.
    awaitInstances(providers.size() - 1, providers.size());
    long effect = System.nanoTime();
    victim.toRegistry().pass();
    long healed = System.nanoTime();
    awaitInstances(providers.size());
    steps.add(new Step("network partition, a provider to the registry server", victim.name(), injected, effect,
        healed));
    awaitRecovery("a partition from the registry server", healed);
  }

  private void registryRestarted() throws Exception {
    long injected = System.nanoTime();
    registry.shutdownNow();
    assertTrue(registry.awaitTermination(Duration.ofSeconds(10)), "the registry server stopped");
    long stopped = System.nanoTime();
    // As an operator restarts it in place: its first lists wait a lease's time for the providers.
    registry = RegistryServer.builder().host("127.0.0.1").port(registryPort).leaseTtl(ClusterProvider.LEASE_TTL)
        .startupGrace(ClusterProvider.LEASE_TTL).build().start();
    long restarted = System.nanoTime();
    // The providers, in their own JVMs, find their leases gone at their next heartbeat and register again.
    AwaitPeers.until(() -> registry.leaseCount() == providers.size(), Duration.ofSeconds(30),
        "every provider registered again in the restarted registry server");
    steps.add(new Step("registry server restarted", "registry", injected, stopped, restarted));
    awaitRecovery("the registry server restarted", restarted);
    assertEquals(providers.size(), viaRegistry.lowestSince(injected),
        "the registry consumer kept its instances while the registry server was away");
  }

  private void zooKeeperLeaderKilled() throws Exception {
    InstanceSpec leader = leader().orElseThrow(() -> new AssertionError("no ZooKeeper leader"));
    long injected = System.nanoTime();
    assertTrue(ensemble.killServer(leader), "killed the leader " + leader);
    // The ensemble elects a new leader among the other two; its servers say so only when asked.
    AwaitPeers.until(() -> leader().filter(l -> !l.equals(leader)).isPresent(), Duration.ofSeconds(30),
        "a new ZooKeeper leader");
    long elected = System.nanoTime();
    steps.add(new Step("ZooKeeper leader killed", "server " + leader.getServerId(), injected, elected, elected));
    awaitRecovery("the ZooKeeper leader killed", elected);
    assertTrue(ensemble.restartServer(leader), "restarted " + leader);
    AwaitPeers.until(() -> "follower".equals(mode(leader.getPort())), Duration.ofSeconds(30),
        "the old leader back as a follower");
  }

  private void consumerSessionExpired() throws Exception {
    long oldSession = consumerSession.getZookeeperClient().getZooKeeper().getSessionId();
    long injected = System.nanoTime();
    KillSession.kill(consumerSession.getZookeeperClient().getZooKeeper());
    signal.await(() -> sessionId() != oldSession && consumerSession.getZookeeperClient().isConnected(),
        Duration.ofSeconds(30), "the consumer in a new ZooKeeper session");
    long renewed = System.nanoTime();
    steps.add(new Step("consumer's ZooKeeper session expired", "zookeeper-consumer", injected, renewed, renewed));
    awaitRecovery("the consumer's session expired", renewed);
  }

  // ---------------------------------------------------------------------------------------------------

  private Provider startProvider() throws Exception {
    String name = "p" + ++providersStarted;
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    FaultProxy proxy = FaultProxy.start(new InetSocketAddress("127.0.0.1", port));
    FaultProxy toRegistry = FaultProxy.start(new InetSocketAddress("127.0.0.1", registryPort));
    Path executions = LOGS.resolve(name + ".executions");
    Path stopReport = LOGS.resolve(name + ".stopped");
    Files.deleteIfExists(executions);
    Files.deleteIfExists(stopReport);
    JavaProcess process = JavaProcess.start(Path.of(System.getProperty("java.home")),
        List.of("-Dio.netty.leakDetection.level=PARANOID", "-Dio.netty.leakDetection.targetRecords=32",
            // The tests' logging shows warnings only; the provider's own lines say it started and stopped.
            "-Dorg.slf4j.simpleLogger.log." + ClusterProvider.class.getName() + "=info",
            "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
        List.of(), ClusterProvider.class.getName(), name, String.valueOf(port), String.valueOf(proxy.port()),
        String.valueOf(toRegistry.port()), ensemble.getConnectString(), executions.toString(), stopReport.toString());
    Provider provider = new Provider(name, port, proxy, toRegistry, process, executions, stopReport);
    everyProvider.add(provider);
    process.awaitListening(port, 60);
    return provider;
  }

  private void replace() throws Exception {
    providers.add(startProvider());
    long added = System.nanoTime();
    awaitInstances(providers.size());
    awaitRecovery("a provider added", added);
  }

  private ClusterCalls consumer(String name, Discovery.Builder discovery, Instances instances) throws IOException {
    TripleClient client = TripleClient.builder()
        .cluster(discovery.loadBalancing(LoadBalancing.ROUND_ROBIN).observer(instances).build()).build();
    clients.add(client);
    Ledger ledger = client.proxy(Ledger.class, CallOptions.DEFAULT.withTimeout(DEADLINE));
    ClusterCalls calls = new ClusterCalls(name, ledger, LOGS.resolve(name + ".calls"), signal);
    consumers.add(calls);
    return calls;
  }

  private void awaitInstances(int count) {
    awaitInstances(count, count);
  }

  private void awaitInstances(int viaRegistryServer, int viaEnsemble) {
    signal.await(() -> viaRegistry.count == viaRegistryServer && viaZooKeeper.count == viaEnsemble,
        Duration.ofSeconds(60), "the directories hold " + viaRegistryServer + " (registry server) and " + viaEnsemble
            + " (ZooKeeper) instances");
  }

  private void awaitRecovery(String what, long since) {
    signal.await(() -> consumers.stream().allMatch(c -> c.recoveredAt(since, STREAK) != null),
        RECOVERY_BOUND.plus(Duration.ofSeconds(30)), STREAK + " calls in a row succeed on each consumer after " + what);
    // Calls still waiting out a deadline end before the next fault, so each failure belongs to one fault.
    long recovered = System.nanoTime();
    signal.await(() -> consumers.stream().allMatch(c -> c.endedAllStartedBefore(recovered)),
        DEADLINE.plus(SLACK).multipliedBy(2), "the calls started before recovering from " + what + " have ended");
  }

  private static long failedSince(ClusterCalls consumer, long nanos) {
    return consumer.calls().stream().filter(call -> !call.ok() && call.startNanos() - nanos >= 0).count();
  }

  /** Whether {@code call} ended while step {@code index} lasted. */
  private boolean during(int index, ClusterCalls.Call call) {
    long end = index + 1 < steps.size() ? steps.get(index + 1).injected() : Long.MAX_VALUE;
    return call.endNanos() - steps.get(index).injected() >= 0 && end - call.endNanos() > 0;
  }

  /** From a step's healing to the start of the last call that failed during it (0 if none started later). */
  private long recoveryNanos(int index) {
    Step step = steps.get(index);
    long last = step.healed();
    for (ClusterCalls consumer : consumers) {
      for (ClusterCalls.Call call : consumer.calls()) {
        if (!call.ok() && during(index, call) && call.startNanos() - last > 0) {
          last = call.startNanos();
        }
      }
    }
    return last - step.healed();
  }

  /** What one step, or all the steps of a kind, did to the calls. */
  private static final class Effect {
    int steps;
    int calls;
    int failed;
    long maxEffectNanos;
    long maxRecoveryNanos;
    final Map<String, Integer> statuses = new TreeMap<>();

    String row(String fault) {
      return "| " + fault + " | " + steps + " | " + TimeUnit.NANOSECONDS.toMillis(maxEffectNanos) + " ms | " + failed
          + " of " + calls + " | " + TimeUnit.NANOSECONDS.toMillis(maxRecoveryNanos) + " ms | "
          + (statuses.isEmpty() ? "-" : statuses.toString().replaceAll("[{}]", "")) + " |\n";
    }
  }

  private String table(ClusterLogs.Report report) {
    Map<String, Effect> byKind = new LinkedHashMap<>();
    StringBuilder each = new StringBuilder();
    String header = "| fault | times | took effect after (max) | calls failed (of those that ended meanwhile) "
        + "| time to recover (max) | failures by status |\n|---|---:|---:|---:|---:|---|\n";
    each.append(header);
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      Effect one = new Effect();
      Effect kind = byKind.computeIfAbsent(step.kind(), k -> new Effect());
      for (Effect effect : List.of(one, kind)) {
        effect.steps++;
        effect.maxEffectNanos = Math.max(effect.maxEffectNanos, step.effect() - step.injected());
        effect.maxRecoveryNanos = Math.max(effect.maxRecoveryNanos, recoveryNanos(i));
      }
      for (ClusterCalls consumer : consumers) {
        for (ClusterCalls.Call call : consumer.calls()) {
          if (during(i, call)) {
            for (Effect effect : List.of(one, kind)) {
              effect.calls++;
              if (!call.ok()) {
                effect.failed++;
                effect.statuses.merge(call.method() + ' ' + call.code(), 1, Integer::sum);
              }
            }
          }
        }
      }
      each.append(one.row(step.kind() + " (" + step.on() + ")"));
    }
    StringBuilder out = new StringBuilder();
    out.append(ROUNDS).append(" round(s), ").append(PROVIDERS).append(" providers, deadline ")
        .append(DEADLINE.toMillis()).append(" ms (+").append(SLACK.toMillis()).append(" ms slack), recovery bound ")
        .append(RECOVERY_BOUND.toSeconds()).append(" s\n\n").append(header);
    byKind.forEach((kind, effect) -> out.append(effect.row(kind)));
    out.append("\ncalls: ").append(report.calls()).append(", runs on providers: ").append(report.executions())
        .append(", by status: ").append(report.byStatus()).append(", violations: ").append(report.violations().size())
        .append("\n\nEach fault:\n\n").append(each);
    return out.toString();
  }

  // ---------------------------------------------------------------------------------------------------
  // ZooKeeper.

  @SuppressWarnings("deprecation") // The builder that replaces it is newer than curator-test 5.9.0.
  private static InstanceSpec spec() {
    return new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MILLIS, -1);
  }

  private long sessionId() {
    try {
      return consumerSession.getZookeeperClient().getZooKeeper().getSessionId();
    } catch (Exception e) {
      return 0;
    }
  }

  private Optional<InstanceSpec> leader() {
    return ensemble.getInstances().stream().filter(spec -> "leader".equals(mode(spec.getPort()))).findFirst();
  }

  /** A member's role, from ZooKeeper's {@code srvr} command (on by default): leader, follower, or down. */
  private static String mode(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
      socket.setSoTimeout(2_000);
      OutputStream out = socket.getOutputStream();
      out.write("srvr".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      return answer.lines().filter(line -> line.startsWith("Mode: ")).map(line -> line.substring(6).trim())
          .findFirst().orElse("unknown");
    } catch (IOException e) {
      return "down";
    }
  }
}
