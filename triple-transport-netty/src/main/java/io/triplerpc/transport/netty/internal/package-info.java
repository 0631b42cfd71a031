/** Shared pieces of the Netty transport: event loops, header conversion. May change at any time. */
package io.triplerpc.transport.netty.internal;
