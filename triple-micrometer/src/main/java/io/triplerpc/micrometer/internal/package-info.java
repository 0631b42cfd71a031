/** How {@code TripleMetrics} records calls and reads gauges; may change at any time. */
package io.triplerpc.micrometer.internal;
