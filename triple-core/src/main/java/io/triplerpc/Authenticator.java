package io.triplerpc;

import java.security.Principal;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import javax.security.auth.x500.X500Principal;

/**
 * Establishes who makes a call, from its request headers and its connection, before the service and
 * its interceptors see it; installed with an {@link AccessPolicy}. The principal it gives is
 * {@link ServerContext#principal()} while the service runs.
 *
 * <p>Called on a thread of the server's service executor, with the call's {@link ServerContext}
 * current, once per call. It may answer at once (a completed stage) or later (an incomplete one: the
 * call waits, its request messages held back, its deadline running). Implementations are
 * thread-safe.
 */
@FunctionalInterface
public interface Authenticator {

  /**
   * The principal making {@code call}. A stage that fails with a {@link StatusException} fails the call
   * with that status; a null principal fails it with {@link Status.Code#UNAUTHENTICATED}, and any other
   * failure with {@link Status.Code#INTERNAL}, its cause logged but not sent.
   */
  CompletionStage<? extends Principal> authenticate(ServerContext call);

  /**
   * Callers that send {@code authorization: Bearer <token>}, the token turned into a principal by
   * {@code verifier}, which returns null for a token it does not accept (unknown, expired, revoked).
   * {@code verifier} runs on a service thread and may block briefly.
   */
  static Authenticator bearerToken(Function<String, ? extends Principal> verifier) {
    Objects.requireNonNull(verifier, "verifier");
    return call -> {
      String authorization = call.requestHeaders().get("authorization");
      if (authorization == null) {
        return CompletableFuture.failedFuture(new StatusException(
            Status.UNAUTHENTICATED.withDescription("Missing credentials: send authorization: Bearer <token>")));
      }
      if (authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        return CompletableFuture.failedFuture(new StatusException(
            Status.UNAUTHENTICATED.withDescription("The authorization header is not a Bearer token")));
      }
      Principal principal = verifier.apply(authorization.substring(7).trim());
      if (principal == null) {
        return CompletableFuture.failedFuture(new StatusException(
            Status.UNAUTHENTICATED.withDescription("Invalid or expired bearer token")));
      }
      return CompletableFuture.completedFuture(principal);
    };
  }

  /**
   * Callers that presented a client certificate over mutual TLS: the principal is its subject, as
   * verified by the handshake against the server's trusted certificates ({@link TlsConfig}).
   */
  static Authenticator clientCertificate() {
    return call -> {
      X500Principal subject = call.peer().peerSubject();
      if (subject == null) {
        return CompletableFuture.failedFuture(new StatusException(Status.UNAUTHENTICATED.withDescription(
            call.peer().isTls() ? "No client certificate was presented" : "Client certificates need TLS")));
      }
      return CompletableFuture.completedFuture(subject);
    };
  }

  /**
   * Tries this authenticator, then, if it gives no principal or fails with UNAUTHENTICATED (no or
   * unknown credentials of its kind), {@code other}.
   */
  default Authenticator or(Authenticator other) {
    Objects.requireNonNull(other, "other");
    Authenticator first = this;
    return call -> {
      CompletionStage<? extends Principal> attempt;
      try {
        attempt = first.authenticate(call);
      } catch (RuntimeException e) {
        attempt = CompletableFuture.failedFuture(e);
      }
      return attempt.<Principal>thenApply(principal -> principal).exceptionally(failure -> {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause instanceof StatusException
            && ((StatusException) cause).status().code() == Status.Code.UNAUTHENTICATED) {
          return null;
        }
        throw failure instanceof CompletionException ? (CompletionException) failure : new CompletionException(failure);
      }).thenCompose(principal -> principal != null
          ? CompletableFuture.completedFuture(principal)
          : other.authenticate(call).thenApply(second -> (Principal) second));
    };
  }
}
