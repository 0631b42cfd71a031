package io.triplerpc.micrometer.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.WriteStats;
import java.util.function.Function;

/**
 * Gauges and counters read from a server or client when the registry publishes, never on a call's path.
 * They hold the server or client weakly: one that is gone reads as NaN.
 */
public final class Gauges {

  private Gauges() {}

  public static void bind(TripleServer server, MeterRegistry registry, Tags tags) {
    removeEarlier(registry, tags, MeterNames.SERVER_CONNECTIONS, MeterNames.SERVER_WRITE_COMMANDS,
        MeterNames.SERVER_WRITE_FLUSHES);
    Gauge.builder(MeterNames.SERVER_CONNECTIONS, server, TripleServer::openConnections)
        .description("Connections open now, whatever their protocol")
        .tags(tags)
        .register(registry);
    bindWrites(server, TripleServer::writeStats, registry, tags, MeterNames.SERVER_WRITE_COMMANDS,
        "Commands (headers, data, resets) the server's HTTP/2 connections wrote", MeterNames.SERVER_WRITE_FLUSHES);
  }

  public static void bind(TripleClient client, MeterRegistry registry, Tags tags) {
    removeEarlier(registry, tags, MeterNames.CLIENT_WRITE_COMMANDS, MeterNames.CLIENT_WRITE_FLUSHES);
    bindWrites(client, TripleClient::writeStats, registry, tags, MeterNames.CLIENT_WRITE_COMMANDS,
        "Commands (stream creations, headers, data, resets) the client's current connections wrote",
        MeterNames.CLIENT_WRITE_FLUSHES);
  }

  /** The counters of the commands {@code owner}'s connections wrote and of the flushes that carried them. */
  private static <T> void bindWrites(T owner, Function<T, WriteStats> stats, MeterRegistry registry, Tags tags,
      String commandsName, String commandsDescription, String flushesName) {
    FunctionCounter.builder(commandsName, owner, o -> stats.apply(o).commands())
        .description(commandsDescription)
        .tags(tags)
        .register(registry);
    FunctionCounter.builder(flushesName, owner, o -> stats.apply(o).flushes())
        .description("Flushes (about one syscall each) that carried the commands")
        .tags(tags)
        .register(registry);
  }

  /**
   * Removes the meters of an earlier binding with exactly these tags (a server restarted in the same
   * process, say): a registry would keep them and ignore the new ones.
   */
  private static void removeEarlier(MeterRegistry registry, Tags tags, String... names) {
    for (String name : names) {
      // Ids are equal by name and tags, and the registry's filters (common tags) apply as for a new meter.
      registry.removeByPreFilterId(new Meter.Id(name, tags, null, null, Meter.Type.OTHER));
    }
  }
}
