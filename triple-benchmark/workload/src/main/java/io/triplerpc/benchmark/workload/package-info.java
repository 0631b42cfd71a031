/** The benchmark workload every contender serves: the same messages, fixtures and server logic. */
package io.triplerpc.benchmark.workload;
