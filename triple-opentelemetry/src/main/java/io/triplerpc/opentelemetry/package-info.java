/**
 * Tracing of Triple calls with OpenTelemetry: {@link io.triplerpc.opentelemetry.TripleTracing} makes the
 * client and server interceptors. Everything in {@code internal} may change at any time.
 */
package io.triplerpc.opentelemetry;
