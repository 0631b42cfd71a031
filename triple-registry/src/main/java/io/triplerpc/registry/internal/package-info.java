/** The consumer's address directory, load balancers and failover; may change without notice. */
package io.triplerpc.registry.internal;
