package io.triplerpc.spring.boot.internal;

import io.triplerpc.spi.ClusterFactory;
import java.util.function.Function;

/**
 * Where a {@code @TripleReference} without an address finds its servers: the application's registry.
 * Kept apart from triple-registry's types so that the client machinery runs without that module.
 *
 * @param cluster the cluster of a client that discovers through the registry, given the balancing as a
 *     target's query names it ({@code pick_first}), or null for the registry's default
 * @param description the registry, for messages
 */
public record DefaultTarget(Function<String, ClusterFactory> cluster, String description) {}
