/**
 * Micrometer metrics of Triple clients and servers: {@link io.triplerpc.micrometer.TripleMetrics}, and of a
 * client's service discovery: {@link io.triplerpc.micrometer.DiscoveryMetrics}. The call metrics are those
 * gRPC's OpenTelemetry metrics proposal (A66) names; docs/observability.md lists them all.
 */
package io.triplerpc.micrometer;
