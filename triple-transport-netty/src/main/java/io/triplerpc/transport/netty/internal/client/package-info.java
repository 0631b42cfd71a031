/** The client side of the Netty transport: connections, their handler, client streams. May change at any time. */
package io.triplerpc.transport.netty.internal.client;
