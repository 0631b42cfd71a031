/**
 * The report step of the benchmark: reads a results folder and writes its summary, tables and charts
 * (and, when asked, {@code docs/benchmarks.md}).
 */
package io.triplerpc.benchmark.report;
