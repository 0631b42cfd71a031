/**
 * Triple under the Connect conformance suite: {@code connectrpc.conformance.v1.ConformanceService}
 * served with Triple, and the server-under-test program {@code connectconformance} starts.
 */
package io.triplerpc.conformance;
