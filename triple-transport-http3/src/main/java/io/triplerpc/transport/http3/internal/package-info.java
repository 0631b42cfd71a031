/**
 * HTTP/3 for Triple servers, on Netty's QUIC codec: the UDP transport, its connections and request
 * streams, each served as an {@code HttpExchange} by triple-transport-netty's protocol framings. Found by
 * {@link java.util.ServiceLoader} as core's {@code Http3ServerTransportFactory}; nothing here is API. May
 * change at any time.
 */
package io.triplerpc.transport.http3.internal;
