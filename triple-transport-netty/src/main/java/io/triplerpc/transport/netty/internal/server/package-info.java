/** The server side of the Netty transport: the listening socket, its handler, server streams. May change at any time. */
package io.triplerpc.transport.netty.internal.server;
