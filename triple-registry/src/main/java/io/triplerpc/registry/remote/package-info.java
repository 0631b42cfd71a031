/**
 * {@link io.triplerpc.registry.remote.RemoteRegistry}: the {@link io.triplerpc.registry.Registry}
 * of providers and consumers that use a standalone registry server.
 */
package io.triplerpc.registry.remote;
