/**
 * Triple's public API: annotate an interface with {@link io.triplerpc.TripleService}, serve an
 * implementation with {@link io.triplerpc.TripleServer}, call it through a proxy from
 * {@link io.triplerpc.TripleClient}. Everything in packages named {@code internal} may change at any time.
 */
package io.triplerpc;
