package io.triplerpc;

/**
 * How well connections batch their writes: commands (stream creations, headers, data, cancels)
 * written, and flushes (roughly, syscalls) that carried them. A client counts over its current
 * connections ({@link TripleClient#writeStats()}), a server over all it had
 * ({@link TripleServer#writeStats()}); approximate while calls are in flight.
 *
 * @param commands commands written to the connections
 * @param flushes flushes of the connections
 */
public record WriteStats(long commands, long flushes) {

  /** Commands per flush: how many frames one syscall carried on average (0 before any write). */
  public double commandsPerFlush() {
    return flushes == 0 ? 0 : (double) commands / flushes;
  }
}
