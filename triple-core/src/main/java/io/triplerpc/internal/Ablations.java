package io.triplerpc.internal;

/**
 * Switches that turn one performance mechanism of the call path off, so the benchmark can show what
 * each is worth (docs/benchmarks.md, ablation table). All off by default; never for production.
 * Read once, when this class loads.
 *
 * <ul>
 *   <li>{@code -Dio.triplerpc.ablation.flushPerCommand=true}: the write queue flushes after every
 *       command instead of every {@code FLUSH_EVERY} commands and once at the end of a drain.
 *   <li>{@code -Dio.triplerpc.ablation.waitForStream=true}: starting a client call waits until the
 *       event loop has created its HTTP/2 stream and sent its headers, as a {@code sync()} would;
 *       applied by the benchmark's own transport factory, not by the transport.
 *   <li>{@code -Dio.triplerpc.ablation.callbackPool=true}: blocking unary calls complete on the
 *       client's callback executor and hand the response to the waiting caller, instead of the caller
 *       running its own response events (ThreadlessExecutor).
 *   <li>{@code -Dio.triplerpc.ablation.askChannel=true}: whether a connection can take a new stream is
 *       asked of the channel on every call, instead of read from a volatile flag.
 * </ul>
 */
public final class Ablations {

  public static final boolean FLUSH_PER_COMMAND = Boolean.getBoolean("io.triplerpc.ablation.flushPerCommand");
  public static final boolean WAIT_FOR_STREAM = Boolean.getBoolean("io.triplerpc.ablation.waitForStream");
  public static final boolean CALLBACK_POOL = Boolean.getBoolean("io.triplerpc.ablation.callbackPool");
  public static final boolean ASK_CHANNEL = Boolean.getBoolean("io.triplerpc.ablation.askChannel");

  private Ablations() {}
}
