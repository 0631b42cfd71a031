package io.triplerpc.transport.netty.internal.write;

/**
 * The second step of a server's {@linkplain GracefulCloseCommand graceful close}, once the client
 * answered its PING or the drain grace passed: a GOAWAY naming the last stream the server processed,
 * then the connection closes when those streams end. Queued behind what waits, so that GOAWAY follows
 * the frames already asked for.
 */
public final class FinishGracefulCloseCommand extends ConnectionCommand {}
