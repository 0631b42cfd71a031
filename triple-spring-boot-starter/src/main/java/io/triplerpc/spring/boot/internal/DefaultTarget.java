package io.triplerpc.spring.boot.internal;

import io.triplerpc.spi.ClusterFactory;
import java.util.function.Supplier;

/**
 * Where a {@code @TripleReference} without an address finds its servers: the application's registry.
 * Kept apart from triple-registry's types so that the client machinery runs without that module.
 *
 * @param cluster the cluster of the one client that discovers through the registry
 * @param description the registry, for messages
 */
public record DefaultTarget(Supplier<ClusterFactory> cluster, String description) {}
