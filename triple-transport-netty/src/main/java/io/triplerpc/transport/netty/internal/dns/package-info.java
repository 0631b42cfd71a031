/** Netty's DNS resolver as the transport's {@link io.triplerpc.spi.DnsResolver}. May change at any time. */
package io.triplerpc.transport.netty.internal.dns;
