/**
 * The registry server's wire API ({@code triple.registry.v1.Registry}) as a Triple service
 * interface, and conversions between its messages and the registry API. Internal: may change at any
 * time.
 */
package io.triplerpc.registry.internal.wire;
