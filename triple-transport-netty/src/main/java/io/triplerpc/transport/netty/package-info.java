/**
 * Triple's Netty transport: gRPC over HTTP/2 with one batching write queue per connection. Found by
 * {@link java.util.ServiceLoader}; users only need it on the class path.
 */
package io.triplerpc.transport.netty;
