/**
 * {@code RemoteRegistry}'s parts: the subscription that keeps a {@code Subscribe} stream open.
 * Internal: may change at any time.
 */
package io.triplerpc.registry.internal.remote;
