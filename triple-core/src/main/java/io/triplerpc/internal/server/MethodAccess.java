package io.triplerpc.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerContext;
import java.security.Principal;
import java.util.List;
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

  /**
   * The access of a generic call ({@code $invoke}), which may reach any of {@code targets}: its own rule
   * when the policy names it, else every target's rule at once, so that a generic call never reaches a
   * method its caller could not call directly. Null when anyone may call every target.
   */
  static MethodAccess ofGeneric(AccessPolicy policy, MethodDescriptor<?, ?> generic, List<MethodDescriptor<?, ?>> targets) {
    if (policy == null) {
      return null;
    }
    if (policy.names().contains(generic.fullMethodName())) {
      return of(policy, generic);
    }
    BiPredicate<Principal, ServerContext> all = null;
    for (MethodDescriptor<?, ?> target : targets) {
      if (!policy.isOpen(target)) {
        BiPredicate<Principal, ServerContext> rule = policy.authorization(target);
        all = all == null ? rule : all.and(rule);
      }
    }
    return all == null ? null : new MethodAccess(policy.authenticator(), all);
  }
}
