/**
 * Micrometer metrics of Triple clients and servers: {@link io.triplerpc.micrometer.TripleMetrics}. The call
 * metrics are those gRPC's OpenTelemetry metrics proposal (A66) names; docs/observability.md lists them.
 */
package io.triplerpc.micrometer;
