/**
 * Plug-in points for service discovery: a {@link io.triplerpc.spi.Cluster} spreads a client's calls
 * over servers it finds itself, and a {@link io.triplerpc.spi.ServerRegistration} announces a server
 * when it starts and withdraws it when it shuts down. {@code triple-registry} implements both; users
 * rarely implement them.
 */
package io.triplerpc.spi;
