/**
 * The interceptors behind {@link io.triplerpc.opentelemetry.TripleTracing}, the attributes they record
 * and the header carrier for propagators. Internal: may change at any time.
 */
package io.triplerpc.opentelemetry.internal;
