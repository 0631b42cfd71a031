/**
 * The {@code grpc.health.v1.Health} service a server serves when asked to, backed by its
 * {@link io.triplerpc.HealthStatusManager}. May change at any time.
 */
package io.triplerpc.internal.health;
