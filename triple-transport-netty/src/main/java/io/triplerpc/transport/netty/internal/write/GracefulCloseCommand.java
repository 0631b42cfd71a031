package io.triplerpc.transport.netty.internal.write;

/**
 * Closes the connection once the streams in flight end: GOAWAY first, no new streams accepted, and
 * the connection closes when the last stream ends. What each side sends is the handler's to decide
 * (a server announces it with two GOAWAY frames around a PING).
 */
public final class GracefulCloseCommand extends ConnectionCommand {
}
