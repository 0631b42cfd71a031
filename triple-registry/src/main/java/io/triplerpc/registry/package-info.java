/**
 * Service discovery's API: a {@link io.triplerpc.registry.Registry} where providers register their
 * instances ({@link io.triplerpc.registry.Registration}) and consumers subscribe to them, and
 * {@link io.triplerpc.registry.Discovery}, which spreads a client's calls over the instances a registry
 * pushes. The registries themselves live beside it: in-process and static here, one package per backend.
 * Everything in packages named {@code internal} may change at any time.
 */
package io.triplerpc.registry;
