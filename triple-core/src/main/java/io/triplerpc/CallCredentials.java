package io.triplerpc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Credentials attached to each call as request headers: a bearer token, an API key, or anything a
 * custom implementation computes, possibly asynchronously (a token fetched and refreshed from an
 * identity provider). Set per client ({@code TripleClient.Builder#callCredentials}) or per call
 * ({@link CallOptions#withCallCredentials}); the call's own win.
 *
 * <p>Credentials never travel over a cleartext connection, where anyone on the path could read and
 * replay them: such a call fails with {@link Status.Code#UNAUTHENTICATED} before anything is sent,
 * unless {@link #allowsCleartext()} (see {@link #allowingCleartext()}).
 *
 * <p>Implementations are thread-safe. Client interceptors do not see the headers credentials add.
 */
public interface CallCredentials {

  /** What a call asks credentials for. */
  record RequestInfo(MethodDescriptor<?, ?> method, boolean tls) {}

  /**
   * The headers to add to the call described by {@code request}. Called on the thread that starts the
   * call, which must not be blocked: return a completed stage when the headers are at hand, an
   * incomplete one to make the call wait for them (what it sends is held meanwhile; its deadline
   * runs). A stage that fails fails the call with the {@link StatusException}'s status, or with
   * UNAUTHENTICATED for any other exception. The call only reads the headers, so an implementation
   * may return the same stage and headers to every call.
   */
  CompletionStage<Metadata> requestHeaders(RequestInfo request);

  /** Whether these credentials may be sent over cleartext connections; false unless overridden. */
  default boolean allowsCleartext() {
    return false;
  }

  /**
   * These credentials, allowed over cleartext connections too: for a trusted network, or a test. Any
   * host on the path can read them.
   */
  default CallCredentials allowingCleartext() {
    CallCredentials self = this;
    return new CallCredentials() {
      @Override
      public CompletionStage<Metadata> requestHeaders(RequestInfo request) {
        return self.requestHeaders(request);
      }

      @Override
      public boolean allowsCleartext() {
        return true;
      }

      @Override
      public String toString() {
        return self + " (cleartext allowed)";
      }
    };
  }

  /** {@code authorization: Bearer token} on every call. */
  static CallCredentials bearerToken(String token) {
    return header("authorization", "Bearer " + checkToken(token));
  }

  /** One header with a fixed value on every call, such as an API key ({@code x-api-key}). */
  static CallCredentials header(String name, String value) {
    Metadata headers = new Metadata();
    headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    // Built once: calls only read it, so a call costs no allocation here.
    CompletableFuture<Metadata> stage = CompletableFuture.completedFuture(headers);
    return new CallCredentials() {
      @Override
      public CompletionStage<Metadata> requestHeaders(RequestInfo request) {
        return stage;
      }

      @Override
      public String toString() {
        // Never the value: credentials end up in logs through toString.
        return "CallCredentials{" + name + "}";
      }
    };
  }

  /**
   * {@code authorization: Bearer ...} with tokens from {@code source}: a token is fetched on the first
   * call and used until 30 s before it expires, when the next call fetches a new one (calls wait for
   * it only once the old one has expired). Concurrent calls share one fetch; a failed fetch fails the
   * calls waiting for it, and the next call tries again.
   */
  static CallCredentials bearerTokens(Supplier<? extends CompletionStage<AccessToken>> source) {
    return bearerTokens(source, Clock.systemUTC(), Duration.ofSeconds(30));
  }

  /**
   * As {@link #bearerTokens(Supplier)}, with the clock tokens expire by and how long before its expiry
   * a token is refreshed.
   */
  static CallCredentials bearerTokens(
      Supplier<? extends CompletionStage<AccessToken>> source, Clock clock, Duration refreshBeforeExpiry) {
    return new RefreshingTokenCredentials(source, clock, refreshBeforeExpiry);
  }

  private static String checkToken(String token) {
    Objects.requireNonNull(token, "token");
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= ' ' || c > '~') {
        throw new IllegalArgumentException("A bearer token is printable ASCII without spaces");
      }
    }
    return token;
  }

  /**
   * A bearer token and when it expires.
   *
   * @param expiresAt when the token stops being accepted, or {@link Instant#MAX} if never
   */
  record AccessToken(String value, Instant expiresAt) {
    public AccessToken {
      checkToken(value);
      Objects.requireNonNull(expiresAt, "expiresAt");
    }

    @Override
    public String toString() {
      return "AccessToken{expiresAt=" + expiresAt + '}';
    }
  }
}
