package io.triplerpc.spi;

/**
 * Announces a server in a registry: {@link #started} once it listens, {@link #stopping} when a
 * shutdown begins (before calls drain, so consumers turn away first). Called on the thread that
 * starts or shuts the server down; implementations should not block for long.
 */
public interface ServerRegistration {

  /** The server listens and serves what {@code server} describes. */
  void started(ServerInfo server);

  /** The server is shutting down; withdraw it. Called at most once, after {@link #started}. */
  void stopping(ServerInfo server);

  /**
   * The server goes out of rotation but goes on ({@code TripleServer.offline()}): withdraw it, ready to
   * announce it again with {@link #online}. {@link #stopping} may follow either. By default, {@link #stopping}.
   */
  default void offline(ServerInfo server) {
    stopping(server);
  }

  /** The server is back in rotation after {@link #offline}: announce it again. By default, {@link #started}. */
  default void online(ServerInfo server) {
    started(server);
  }
}
