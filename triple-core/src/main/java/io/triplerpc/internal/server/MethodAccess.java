package io.triplerpc.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerContext;
import java.security.Principal;
import java.util.function.BiPredicate;

/**
 * What a call of one method must pass before its handler chain starts, resolved from the server's
 * {@link AccessPolicy} once per method. Immutable.
 */
record MethodAccess(Authenticator authenticator, BiPredicate<Principal, ServerContext> rule) {

  /** The access of {@code method} under {@code policy}; null when anyone may call it. */
  static MethodAccess of(AccessPolicy policy, MethodDescriptor<?, ?> method) {
    if (policy == null || policy.isOpen(method)) {
      return null;
    }
    return new MethodAccess(policy.authenticator(), policy.authorization(method));
  }
}
