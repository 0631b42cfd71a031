/**
 * Plug-in points for service discovery: a {@link io.triplerpc.spi.Cluster} spreads a client's calls
 * over servers it finds itself, and a {@link io.triplerpc.spi.ServerRegistration} announces a server
 * when it starts and withdraws it when it shuts down. {@code triple-registry} implements both; users
 * rarely implement them. And for operations tools: an {@link io.triplerpc.spi.HttpGetHandler} answers
 * plain HTTP GETs of one path on a server's port ({@code triple-micrometer}'s Prometheus scrape is one).
 */
package io.triplerpc.spi;
