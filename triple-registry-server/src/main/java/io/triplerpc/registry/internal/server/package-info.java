/**
 * The registry server's state: leases over an in-process store, and the subscription streams it
 * feeds. Internal: may change at any time.
 */
package io.triplerpc.registry.internal.server;
