/**
 * The connection-level write queue and the commands it carries; depends on neither the client nor
 * the server side. May change at any time.
 */
package io.triplerpc.transport.netty.internal.write;
