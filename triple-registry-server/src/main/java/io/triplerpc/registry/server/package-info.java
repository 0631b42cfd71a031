/**
 * The standalone registry server: {@link io.triplerpc.registry.server.RegistryServer} and its
 * command line, {@link io.triplerpc.registry.server.RegistryServerMain}. In the module
 * {@code triple-registry-server}, which one deploys; providers and consumers reach the server with
 * {@code triple-registry}'s {@code RemoteRegistry} and never depend on this.
 */
package io.triplerpc.registry.server;
