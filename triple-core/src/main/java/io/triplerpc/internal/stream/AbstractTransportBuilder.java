package io.triplerpc.internal.stream;

import io.triplerpc.CallObserver;
import io.triplerpc.TlsConfig;
import io.triplerpc.Transport;
import io.triplerpc.TransportBuilder;
import io.triplerpc.internal.VirtualThreads;
import io.triplerpc.internal.observe.CallObservers;
import io.triplerpc.serialization.object.DeserializationAllowList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The one implementation of {@link TransportBuilder}, for the client's and the server's builder: the
 * fields start at the side's defaults ({@link Http2Limits#CLIENT_DEFAULTS} and
 * {@link Http2Limits#SERVER_DEFAULTS}, the one place they are stated, with {@link KeepAlive}'s), each
 * setter checks its value at once, and the side reads them back resolved when it builds.
 */
public abstract class AbstractTransportBuilder<B extends TransportBuilder<B>> implements TransportBuilder<B> {

  private int maxInboundMessageSize;
  private int maxHeaderListSize;
  private int initialWindowSize;
  private int maxWindowSize;
  private int maxQueuedControlFrames;
  private int maxRstFramesPerWindow;
  private int rstFramesWindowSeconds;
  private int maxConsecutiveEmptyDataFrames;
  private long maxPendingOutboundBytes;
  private long keepAliveTimeNanos;
  private long keepAliveTimeoutNanos;
  private int ioThreads;
  /** The transport asked for, or null for the JVM's default. */
  private Transport transport;
  private TlsConfig tls;
  /** Whether HTTP/3 is on; each side's builder reads it with its own HTTP/3 settings. */
  private boolean http3;
  private Executor executor;
  /** The name of the side's executor threads ({@code triple-service}, {@code triple-callback}). */
  private final String threadName;
  private final List<CallObserver> observers = new ArrayList<>();
  private final DeserializationAllowList allowList = DeserializationAllowList.create();

  protected AbstractTransportBuilder(Http2Limits limits, KeepAlive keepAlive, String threadName) {
    this.threadName = threadName;
    maxInboundMessageSize = limits.maxInboundMessageSize();
    maxHeaderListSize = limits.maxHeaderListSize();
    initialWindowSize = limits.initialWindowSize();
    maxWindowSize = limits.maxWindowSize();
    maxQueuedControlFrames = limits.maxQueuedControlFrames();
    maxRstFramesPerWindow = limits.maxRstFramesPerWindow();
    rstFramesWindowSeconds = limits.rstFramesWindowSeconds();
    maxConsecutiveEmptyDataFrames = limits.maxConsecutiveEmptyDataFrames();
    maxPendingOutboundBytes = limits.maxPendingOutboundBytes();
    keepAliveTimeNanos = keepAlive.timeNanos();
    keepAliveTimeoutNanos = keepAlive.timeoutNanos();
  }

  /** This builder, as its API type. */
  protected abstract B self();

  @Override
  public B maxInboundMessageSize(int bytes) {
    this.maxInboundMessageSize = positive(bytes, "maxInboundMessageSize");
    return self();
  }

  @Override
  public B maxHeaderListSize(int bytes) {
    this.maxHeaderListSize = positive(bytes, "maxHeaderListSize");
    return self();
  }

  @Override
  public B initialWindowSize(int bytes) {
    this.initialWindowSize = positive(bytes, "initialWindowSize");
    return self();
  }

  @Override
  public B maxWindowSize(int bytes) {
    this.maxWindowSize = positive(bytes, "maxWindowSize");
    return self();
  }

  @Override
  public B maxQueuedControlFrames(int frames) {
    this.maxQueuedControlFrames = Http2Limits.checkLimit(frames, "maxQueuedControlFrames");
    return self();
  }

  @Override
  public B maxRstFramesPerWindow(int frames, Duration window) {
    Objects.requireNonNull(window, "window");
    this.maxRstFramesPerWindow = Http2Limits.checkLimit(frames, "maxRstFramesPerWindow");
    this.rstFramesWindowSeconds = Http2Limits.windowSeconds(window);
    return self();
  }

  @Override
  public B maxConsecutiveEmptyDataFrames(int frames) {
    this.maxConsecutiveEmptyDataFrames = Http2Limits.checkLimit(frames, "maxConsecutiveEmptyDataFrames");
    return self();
  }

  @Override
  public B maxPendingOutboundBytes(long bytes) {
    this.maxPendingOutboundBytes = Http2Limits.checkLimit(bytes, "maxPendingOutboundBytes");
    return self();
  }

  @Override
  public B keepAliveTime(Duration time) {
    this.keepAliveTimeNanos = KeepAlive.nanos(Objects.requireNonNull(time, "time"), "keepAliveTime", false);
    return self();
  }

  @Override
  public B keepAliveTimeout(Duration timeout) {
    this.keepAliveTimeoutNanos = KeepAlive.nanos(Objects.requireNonNull(timeout, "timeout"), "keepAliveTimeout", false);
    return self();
  }

  @Override
  public B ioThreads(int threads) {
    this.ioThreads = Http2Limits.checkLimit(threads, "ioThreads");
    return self();
  }

  @Override
  public B transport(Transport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
    return self();
  }

  @Override
  public B tls(TlsConfig tls) {
    this.tls = Objects.requireNonNull(tls, "tls");
    return self();
  }

  @Override
  public B http3() {
    this.http3 = true;
    return self();
  }

  @Override
  public B executor(Executor executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
    return self();
  }

  @Override
  public B virtualThreads() {
    this.executor = VirtualThreads.perTask(threadName);
    return self();
  }

  @Override
  public B callObserver(CallObserver observer) {
    observers.add(Objects.requireNonNull(observer, "observer"));
    return self();
  }

  @Override
  public B allowDeserialization(String... classNamesOrPackagePrefixes) {
    allowList.add(classNamesOrPackagePrefixes);
    return self();
  }

  /** The limits as set; the record checks how they go together. */
  protected final Http2Limits limits() {
    return new Http2Limits(maxInboundMessageSize, maxHeaderListSize, initialWindowSize, maxWindowSize,
        maxQueuedControlFrames, maxRstFramesPerWindow, rstFramesWindowSeconds, maxConsecutiveEmptyDataFrames,
        maxPendingOutboundBytes);
  }

  /** The keepalive as set, pinging connections without calls as {@code withoutCalls} says. */
  protected final KeepAlive keepAlive(boolean withoutCalls) {
    return new KeepAlive(keepAliveTimeNanos, keepAliveTimeoutNanos, withoutCalls);
  }

  protected final int ioThreads() {
    return ioThreads;
  }

  /** The transport set, or null for the JVM's default. */
  protected final Transport transport() {
    return transport;
  }

  /** The TLS set, or null for cleartext. */
  /** Whether {@link #http3()} was called. */
  protected final boolean http3Enabled() {
    return http3;
  }

  protected final TlsConfig tls() {
    return tls;
  }

  /** The executor set, or null for the side's own pool. */
  protected final Executor executor() {
    return executor;
  }

  /** The observers, as one. */
  protected final CallObservers observers() {
    return CallObservers.of(observers);
  }

  /** A copy of the allow list as it is now: what is built keeps it, whatever this builder is told later. */
  protected final DeserializationAllowList allowListCopy() {
    return allowList.copy();
  }

  /** The allow list itself, for checks made while the builder is filled. */
  protected final DeserializationAllowList allowList() {
    return allowList;
  }

  private static int positive(int value, String name) {
    Http2Limits.positive(value, name);
    return value;
  }
}
