/** The registry scale harness: Dubbo 3's Seed-700 address-push shape against the consumer's directory. */
package io.triplerpc.benchmark.registry;
