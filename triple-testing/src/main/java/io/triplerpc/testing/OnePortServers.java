package io.triplerpc.testing;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Servers on several loopback addresses (127.0.0.1, 127.0.0.2, ...) and one port, as the addresses of
 * a DNS name are (its records carry no port): the first server takes a free port, the others bind the
 * same one on their address, and if another process holds it on one of them, all start again on
 * another port.
 */
public final class OnePortServers {

  /** Starts a server on {@code host} and {@code port} (0 for any free one); throws {@link UncheckedIOException} if taken. */
  @FunctionalInterface
  public interface Starter<S> {
    S start(String host, int port) throws Exception;
  }

  private static final int ATTEMPTS = 10;

  private OnePortServers() {}

  /**
   * One server per host, all on one port, in the order of {@code hosts}.
   *
   * @param portOf the port a started server listens on
   * @param stop stops a server of an attempt that did not get every host
   * @throws AssertionError if no port was free on every host after some attempts
   */
  public static <S> List<S> start(List<String> hosts, Starter<S> starter, ToIntFunction<S> portOf, Consumer<S> stop)
      throws Exception {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      List<S> servers = new ArrayList<>();
      int port = 0;
      try {
        for (String host : hosts) {
          S server = starter.start(host, port);
          servers.add(server);
          port = portOf.applyAsInt(server);
        }
        return servers;
      } catch (UncheckedIOException taken) {
        // Another process holds the port on one of the addresses: try another.
        servers.forEach(stop);
      }
    }
    throw new AssertionError("No port was free on all of " + hosts + " in " + ATTEMPTS + " attempts");
  }
}
