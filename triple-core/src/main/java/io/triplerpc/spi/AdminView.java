package io.triplerpc.spi;

/**
 * A part of a process's state that an admin endpoint shows (see {@code TripleServer.Builder.admin} and
 * {@code adminView}): its JSON at {@code GET /<name>}, and a section of the endpoint's HTML page at {@code GET /}.
 * triple-registry's {@code Discovery} is one, named {@code directories}: the registry subscriptions of the clients
 * built with it and the endpoints each directory holds.
 *
 * <p>Implementations are thread-safe; {@link #snapshot()} is called on a thread of the endpoint's own, never on a
 * call path, and should answer within a moment (it may take a lock briefly).
 */
public interface AdminView {

  /** The view's path segment, such as {@code directories}: lower-case letters, digits and {@code -}. */
  String name();

  /**
   * The state now, as JSON values: a {@code Map<String, ?>} (its order kept), a {@code List<?>}, a
   * {@code String}, a {@code Number}, a {@code Boolean} or null, nested as deep as needed.
   */
  Object snapshot();
}
