/** What every contender's benchmark shares: its server's process, and the profilers that read it. */
package io.triplerpc.benchmark.harness;
