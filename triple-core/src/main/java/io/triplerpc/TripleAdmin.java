package io.triplerpc;

import io.triplerpc.internal.server.TripleAdminBuilder;
import io.triplerpc.spi.AdminView;
import java.net.InetSocketAddress;

/**
 * An admin endpoint of its own, for a process that calls but does not serve: a small HTTP server (HTTP/1.1 and
 * HTTP/2, cleartext) showing each {@link AdminView} as JSON at {@code GET /<name>} and all of them as an HTML page
 * at {@code GET /}, such as triple-registry's {@code Discovery} ({@code /directories}). A process that serves
 * uses its server's ({@link TripleServer.Builder#admin(int)}, {@link TripleServer.Builder#adminView}) instead.
 *
 * <pre>{@code
 * Discovery discovery = Discovery.using(registry).build();
 * TripleClient client = TripleClient.builder().cluster(discovery).build();
 * TripleAdmin admin = TripleAdmin.builder().port(22222).view(discovery).start();
 * }</pre>
 *
 * <p>Thread-safe.
 */
public abstract class TripleAdmin implements AutoCloseable {

  /** For the implementation in triple-core only. */
  protected TripleAdmin() {}

  /** A builder of an admin endpoint on loopback. */
  public static Builder builder() {
    return new TripleAdminBuilder();
  }

  /** The port it listens on (the real one when 0 was asked for). */
  public abstract int port();

  /** Stops the endpoint; requests in flight are cut short. Never blocks. */
  @Override
  public abstract void close();

  /** Builds a {@link TripleAdmin}. Not thread-safe. */
  public interface Builder {

    /** Listens on {@code port} of the loopback interface (127.0.0.1); 0, the default, lets the system choose. */
    Builder port(int port);

    /**
     * Listens at {@code address} instead of loopback, every request authenticated and authorized by
     * {@code policy} as {@link TripleServer.Builder#admin(InetSocketAddress, AccessPolicy)} says.
     */
    Builder bind(InetSocketAddress address, AccessPolicy policy);

    /**
     * Shows {@code view}.
     *
     * @throws IllegalArgumentException if its name is malformed or taken
     */
    Builder view(AdminView view);

    /**
     * Binds the port and serves.
     *
     * @throws IllegalStateException if no view was added
     * @throws java.io.UncheckedIOException if the port cannot be bound
     */
    TripleAdmin start();
  }
}
