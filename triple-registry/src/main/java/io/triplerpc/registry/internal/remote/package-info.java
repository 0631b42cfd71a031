/**
 * {@code RemoteRegistry}'s parts: its provider side (the lease, heartbeat and resent writes), its
 * consumer side (subscriptions, each a stream kept open, and lookups), and the connection both share.
 * Internal: may change at any time.
 */
package io.triplerpc.registry.internal.remote;
