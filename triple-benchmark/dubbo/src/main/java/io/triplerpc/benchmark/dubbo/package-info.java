/** The Apache Dubbo contender of the benchmark: its server (run in a JVM of its own) and its JMH client. */
package io.triplerpc.benchmark.dubbo;
