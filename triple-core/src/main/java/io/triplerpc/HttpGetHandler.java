package io.triplerpc;

import java.util.Map;
import java.util.Objects;

/**
 * Answers plain HTTP GET (and HEAD) requests of one path on a server's own port, beside its calls: an
 * operations endpoint such as a metrics scrape ({@code TripleMetrics.prometheus} in triple-micrometer).
 * Registered with {@link TripleServer.Builder#httpGet}, which says who can reach it.
 *
 * <p>Called on the server's service executor ({@link java.util.concurrent.ForkJoinPool#commonPool()} for a
 * server with {@code directExecutor()}), never on a transport thread, so it may take a moment to answer;
 * its request waits for it, as do the requests queued behind it on an HTTP/1.1 connection. Requests may
 * come concurrently: implementations must be thread-safe.
 */
@FunctionalInterface
public interface HttpGetHandler {

  /**
   * The response to {@code request}; for a HEAD request only its status and headers are sent, with the
   * body's length. What it throws, and a null response, are logged and answered with 500.
   */
  Response get(Request request) throws Exception;

  /**
   * A GET or HEAD request of the handler's path.
   *
   * @param target the request target: the path, and the query if there is one ({@code /metrics?x=1})
   * @param headers the request headers, by lower-case name ({@code accept}), less those of HTTP itself
   *     ({@code host}, {@code connection}, {@code content-type} and the pseudo-headers)
   * @param peer the connection the request came on
   */
  record Request(String target, Metadata headers, PeerInfo peer) {

    public Request {
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(headers, "headers");
    }
  }

  /**
   * What the handler answers.
   *
   * @param status the HTTP status code, 200 to 599
   * @param contentType the {@code content-type} header
   * @param body the body, which is not copied: the array must not change once returned
   * @param headers further response headers ({@code cache-control}...), by lower-case name; none by default
   */
  record Response(int status, String contentType, byte[] body, Map<String, String> headers) {

    public Response {
      if (status < 200 || status > 599) {
        throw new IllegalArgumentException("HTTP status out of range 200-599: " + status);
      }
      Objects.requireNonNull(contentType, "contentType");
      Objects.requireNonNull(body, "body");
      headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
      for (String name : headers.keySet()) {
        if (!name.equals(name.toLowerCase(java.util.Locale.ROOT)) || name.isEmpty() || name.startsWith(":")
            || name.equals("content-type") || name.equals("content-length")) {
          throw new IllegalArgumentException("Not a response header a handler sets: " + name);
        }
      }
    }

    /** A response with no further header. */
    public Response(int status, String contentType, byte[] body) {
      this(status, contentType, body, Map.of());
    }

    /** A 200 response of {@code body} in {@code contentType}. */
    public static Response ok(String contentType, byte[] body) {
      return new Response(200, contentType, body);
    }

    /** This response with header {@code name} (lower case) set to {@code value}. */
    public Response withHeader(String name, String value) {
      Map<String, String> more = new java.util.HashMap<>(headers);
      more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return new Response(status, contentType, body, more);
    }
  }
}
