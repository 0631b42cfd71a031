package io.triplerpc.registry;

import io.triplerpc.registry.internal.DirectorySettings;
import io.triplerpc.spi.DnsResolver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The addresses of one DNS name, as a registry of one application that serves every service: what a
 * {@code dns:///users.prod.svc:50051} target finds. Every A and AAAA record of the name is an
 * instance, on the target's port (A records carry none). Names resolve asynchronously, with the
 * transport's DNS resolver ({@link DnsResolver}, Netty's) on a thread of its own, never on an event loop of a client or on a caller's thread, and
 * against the system's name servers ({@code /etc/resolv.conf}, its search domains and {@code ndots}
 * included) unless {@link Builder#nameServer} names one.
 *
 * <p>The name is resolved when the first consumer asks, and again when {@link #refresh()} is called
 * (a consumer's call to one of the addresses failed: its connection was lost or refused), at most once
 * per {@link Builder#minResolveInterval} (30 s by default, as grpc-java), and, if
 * {@link Builder#refreshOnTtl} is on, when the records' TTL runs out (again no sooner than that
 * interval). Addresses that disappear from the answer leave the consumers' directories (their calls in
 * flight finish), new ones get calls at once. A failed resolution (NXDOMAIN, a timeout) or an answer
 * without address keeps the last good addresses; before the first good answer, calls fail with
 * UNAVAILABLE naming the name and the resolver's error. Read-only; thread-safe.
 */
public final class DnsRegistry extends ReadOnlyRegistry {

  private static final Logger log = LoggerFactory.getLogger(DnsRegistry.class);

  private final String name;
  private final int port;
  private final long minIntervalNanos;
  private final boolean refreshOnTtl;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier nanoTime;
  private final DnsResolver resolver;
  /** Where the resolver answers and listeners are told, one at a time, in order. */
  private final ScheduledExecutorService loop;
  private final List<InstanceListener> listeners = new CopyOnWriteArrayList<>();

  // Guarded by this.
  /** The last good answer's addresses; empty until there is one. */
  private List<ServiceInstance> instances = List.of();
  /** The resolution under way, or null. */
  private CompletableFuture<String> inFlight;
  private long lastStartNanos;
  /** A re-resolution waiting for its time, or null. */
  private ScheduledFuture<?> scheduled;
  private boolean closed;

  private DnsRegistry(Builder builder) {
    this.name = builder.name;
    this.port = builder.port;
    this.minIntervalNanos = builder.minInterval.toNanos();
    this.refreshOnTtl = builder.refreshOnTtl;
    this.resolver = DnsResolver.create(builder.nameServer, builder.queryTimeout);
    this.loop = resolver.loop();
    this.scheduler = builder.scheduler != null ? builder.scheduler : loop;
    this.nanoTime = builder.nanoTime != null ? builder.nanoTime : System::nanoTime;
  }

  /** A registry of {@code name}'s addresses, each serving on {@code port}. */
  public static Builder builder(String name, int port) {
    return new Builder(name, port);
  }

  /** The DNS name, which is also the one application's name. */
  public String name() {
    return name;
  }

  /**
   * Asks for the name to be resolved again: now, if the last resolution started at least
   * {@link Builder#minResolveInterval} ago, else once that much time has passed. Never blocks.
   */
  public void refresh() {
    synchronized (this) {
      if (closed || inFlight != null || scheduled != null) {
        return;
      }
      long delay = lastStartNanos + minIntervalNanos - nanoTime.getAsLong();
      if (delay > 0) {
        scheduled = scheduler.schedule(this::scheduledResolve, delay, TimeUnit.NANOSECONDS);
        return;
      }
    }
    resolve();
  }

  private void scheduledResolve() {
    synchronized (this) {
      scheduled = null;
    }
    resolve();
  }

  /**
   * Resolves the name unless a resolution is under way; either way, the future of that resolution:
   * null when it gave addresses, else why not.
   */
  private CompletableFuture<String> resolve() {
    CompletableFuture<String> resolution;
    synchronized (this) {
      if (inFlight != null) {
        return inFlight;
      }
      if (closed) {
        return CompletableFuture.completedFuture("the registry is closed");
      }
      resolution = inFlight = new CompletableFuture<>();
      lastStartNanos = nanoTime.getAsLong();
    }
    resolver.resolveAll(name).whenComplete((answer, failure) ->
        resolution.complete(answer != null ? resolved(answer.addresses(), answer.minTtlSeconds(), null)
            : resolved(List.of(), 0, failure)));
    return resolution;
  }

  /** Takes a resolution's answer in; returns null if it gave addresses, else why not. */
  private String resolved(List<InetAddress> addresses, long minTtlSeconds, Throwable failure) {
    List<ServiceInstance> found = new ArrayList<>();
    for (InetAddress address : addresses) {
      found.add(ServiceInstance.of(name, address.getHostAddress(), port, DirectorySettings.ANY_REVISION));
    }
    found.sort(Comparator.comparing(ServiceInstance::host));
    List<ServiceInstance> push = null;
    int kept;
    synchronized (this) {
      inFlight = null;
      if (closed) {
        return "the registry is closed";
      }
      if (!found.isEmpty() && !found.equals(instances)) {
        instances = List.copyOf(found);
        push = instances;
      }
      kept = instances.size();
      if (refreshOnTtl && scheduled == null && !found.isEmpty()) {
        long ttlNanos = Math.max(TimeUnit.SECONDS.toNanos(minTtlSeconds), minIntervalNanos);
        scheduled = scheduler.schedule(this::scheduledResolve, ttlNanos, TimeUnit.NANOSECONDS);
      }
    }
    if (push != null) {
      for (InstanceListener listener : listeners) {
        listener.onResync(push);
      }
    }
    if (!found.isEmpty()) {
      return null;
    }
    String why = failure != null ? failure.toString() : "an answer without A or AAAA records";
    if (kept > 0) {
      log.warn("{}: {}; keeping the {} addresses of the last good answer", this, why, kept);
    }
    return why;
  }

  @Override
  public CompletableFuture<Set<String>> applications(String serviceName) {
    synchronized (this) {
      if (!instances.isEmpty()) {
        return CompletableFuture.completedFuture(Set.of(name));
      }
    }
    // No good answer yet: this one decides (a consumer asks again after a failure, and may succeed).
    return resolve().thenApply(why -> {
      if (why != null && instancesNow().isEmpty()) {
        throw new CompletionException(new UnknownHostException(this + " did not resolve: " + why));
      }
      return Set.of(name);
    });
  }

  private synchronized List<ServiceInstance> instancesNow() {
    return instances;
  }

  @Override
  public Subscription subscribe(String application, InstanceListener listener) {
    if (!name.equals(application)) {
      listener.onResync(List.of());
      return () -> {};
    }
    // Told on the loop, as every answer is, so that it never hears an older list after a newer one.
    loop.execute(() -> {
      listeners.add(listener);
      List<ServiceInstance> known = instancesNow();
      if (!known.isEmpty()) {
        listener.onResync(known);
      } else {
        resolve();
      }
    });
    return new Subscription() {
      @Override
      public void refresh() {
        DnsRegistry.this.refresh();
      }

      @Override
      public void close() {
        loop.execute(() -> listeners.remove(listener));
      }
    };
  }

  @Override
  String kind() {
    return "DNS";
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (scheduled != null) {
        scheduled.cancel(false);
      }
    }
    listeners.clear();
    resolver.close();
  }

  @Override
  public String toString() {
    return "dns:///" + name + ":" + port;
  }

  /** Builds a {@link DnsRegistry}. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final int port;
    private InetSocketAddress nameServer;
    private Duration minInterval = Duration.ofSeconds(30);
    private boolean refreshOnTtl;
    private Duration queryTimeout = Duration.ofSeconds(5);
    private ScheduledExecutorService scheduler;
    private LongSupplier nanoTime;

    private Builder(String name, int port) {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty() || name.contains("/") || name.contains(":")) {
        throw new IllegalArgumentException("A DNS name, such as users.prod.svc: " + name);
      }
      if (port <= 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.name = name;
      this.port = port;
    }

    /** The name server to ask; the system's ({@code /etc/resolv.conf}) by default. */
    public Builder nameServer(InetSocketAddress server) {
      this.nameServer = Objects.requireNonNull(server, "server");
      return this;
    }

    /**
     * The shortest time between two resolutions (those {@link DnsRegistry#refresh} and the TTL ask
     * for); 30 s by default, as grpc-java.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder minResolveInterval(Duration interval) {
      if (Objects.requireNonNull(interval, "interval").isNegative()) {
        throw new IllegalArgumentException("minResolveInterval must not be negative: " + interval);
      }
      this.minInterval = interval;
      return this;
    }

    /** Whether the name is resolved again when its records' TTL runs out; false by default. */
    public Builder refreshOnTtl(boolean enabled) {
      this.refreshOnTtl = enabled;
      return this;
    }

    /**
     * How long one DNS query may take; 5 s by default, as the resolver's.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder queryTimeout(Duration timeout) {
      if (Objects.requireNonNull(timeout, "timeout").isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("queryTimeout must be positive: " + timeout);
      }
      this.queryTimeout = timeout;
      return this;
    }

    /** For tests: re-resolutions scheduled on {@code scheduler}, the interval counted by {@code nanoTime}. */
    Builder clock(ScheduledExecutorService scheduler, LongSupplier nanoTime) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
      return this;
    }

    public DnsRegistry build() {
      return new DnsRegistry(this);
    }
  }
}
