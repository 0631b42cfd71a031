package io.triplerpc.registry.internal.rules;

/** A rule's text that cannot be applied as a whole; the message says where and why. */
public final class RuleException extends Exception {

  private static final long serialVersionUID = 1L;

  RuleException(String message) {
    super(message, null, false, false);
  }

  RuleException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
