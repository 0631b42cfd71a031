package io.triplerpc.internal.stream;

import io.triplerpc.HttpGetHandler;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A plain HTTP GET endpoint of a server ({@code TripleServer.Builder.httpGet}): one path, its handler, and
 * the executor the handler runs on, so that the transport never runs it on an event loop. The transport
 * finds it through {@link ServerTransportListener#httpEndpoint} and writes the response it completes with.
 * A folder endpoint ({@link #folder}) serves every path under its own, as the server's docs page serves
 * the files of its webjar. Immutable and thread-safe.
 */
public final class HttpEndpoint {

  private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);
  private static final String TEXT_PLAIN = "text/plain; charset=utf-8";

  /** An absolute path without a query, such as {@code /metrics}; a folder's ends in {@code /}. */
  private final String path;
  private final HttpGetHandler handler;
  private final Executor executor;
  /** Whether every path that starts with {@link #path} is this endpoint's, not {@code path} alone. */
  private final boolean folder;
  /** Of a folder's paths, those it has something at; a REST route may serve the others. */
  private final Predicate<String> owns;

  public HttpEndpoint(String path, HttpGetHandler handler, Executor executor) {
    this(path, handler, executor, false, target -> true);
  }

  private HttpEndpoint(String path, HttpGetHandler handler, Executor executor, boolean folder,
      Predicate<String> owns) {
    this.path = Objects.requireNonNull(path, "path");
    this.handler = Objects.requireNonNull(handler, "handler");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.folder = folder;
    this.owns = Objects.requireNonNull(owns, "owns");
  }

  /**
   * An endpoint of every path under {@code folder}, such as {@code /docs/}: its handler is given the whole
   * target and must itself refuse what it does not serve.
   *
   * @param folder an absolute path ending in {@code /}
   */
  public static HttpEndpoint folder(String folder, HttpGetHandler handler, Executor executor) {
    return folder(folder, handler, executor, target -> true);
  }

  /**
   * As {@link #folder(String, HttpGetHandler, Executor)}, of which {@code owns} tells the targets (path and query,
   * as they came) it has something at: a REST route under the folder serves the others ({@link #yieldsTo}).
   */
  public static HttpEndpoint folder(String folder, HttpGetHandler handler, Executor executor,
      Predicate<String> owns) {
    if (!folder.startsWith("/") || !folder.endsWith("/")) {
      throw new IllegalArgumentException("A folder is an absolute path ending in /: " + folder);
    }
    return new HttpEndpoint(folder, handler, executor, true, owns);
  }

  /**
   * Whether {@code target}, which {@link #matches} this endpoint, is one a REST route should serve if it has one:
   * a path under a folder that has nothing at it. The folder answers it (its 404) when no route does.
   */
  public boolean yieldsTo(CharSequence target) {
    return folder && !owns.test(target.toString());
  }

  /** The path it serves. */
  public String path() {
    return path;
  }

  /**
   * Whether {@code target}, a request's path and query as it came, names this endpoint: its path exactly,
   * alone or followed by a query; for a folder, any target that starts with its path. Builds nothing.
   */
  public boolean matches(CharSequence target) {
    int length = path.length();
    if (target.length() < length
        || (!folder && target.length() > length && target.charAt(length) != '?')) {
      return false;
    }
    for (int i = length - 1; i >= 0; i--) {
      if (target.charAt(i) != path.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs the handler for {@code request} on the executor. The future completes on the executor's thread
   * with the handler's response, a 500 if it threw or answered null, or at once with a 503 if the executor
   * refused the task; never exceptionally. Never blocks.
   */
  public CompletableFuture<HttpGetHandler.Response> get(HttpGetHandler.Request request) {
    CompletableFuture<HttpGetHandler.Response> response = new CompletableFuture<>();
    try {
      executor.execute(() -> {
        try {
          response.complete(answer(request));
        } catch (Error e) {
          // The request is answered still; the thread's owner hears of the error.
          response.complete(failed());
          throw e;
        }
      });
    } catch (RejectedExecutionException e) {
      response.complete(text(503, "The server is not taking requests now"));
    }
    return response;
  }

  private HttpGetHandler.Response answer(HttpGetHandler.Request request) {
    try {
      HttpGetHandler.Response response = handler.get(request);
      if (response != null) {
        return response;
      }
      log.warn("The handler of {} answered null", path);
    } catch (Exception e) {
      // The client learns that it failed, not why: the reason may say more than the endpoint should.
      log.warn("The handler of {} failed", path, e);
    }
    return failed();
  }

  private HttpGetHandler.Response failed() {
    return text(500, "The handler of " + path + " failed");
  }

  private static HttpGetHandler.Response text(int status, String text) {
    return new HttpGetHandler.Response(status, TEXT_PLAIN, (text + "\n").getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "HttpEndpoint(" + path + (folder ? "*)" : ")");
  }
}
