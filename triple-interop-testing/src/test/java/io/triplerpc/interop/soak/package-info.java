/**
 * The soak run ({@code scripts/soak.sh}): a server in a JVM of its own, a driver that loads it with a
 * mixed workload at a steady rate and samples both sides, and the report that fits a line through
 * each series. Test tooling; may change at any time.
 */
package io.triplerpc.interop.soak;
