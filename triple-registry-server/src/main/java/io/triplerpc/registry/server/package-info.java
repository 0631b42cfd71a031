/**
 * The standalone registry server: {@link io.triplerpc.registry.server.RegistryServer} and its
 * command line, {@link io.triplerpc.registry.server.RegistryServerMain}.
 */
package io.triplerpc.registry.server;
