package io.triplerpc.serialization.object;

import java.io.IOException;

/**
 * A peer sent a value of a class that the reading side may not instantiate: neither the service's
 * signatures reach it nor does an allow list name it (see {@link AllowedClasses}). Thrown before the class
 * is instantiated, so none of its code (constructor, setters, {@code readObject}, {@code readResolve}) ran.
 */
public final class ClassNotAllowedException extends IOException {

  private static final long serialVersionUID = 1L;

  /** The name of the refused class, as the peer wrote it. */
  private final String className;

  /** A refusal of {@code className}, explained by {@code message}. */
  public ClassNotAllowedException(String className, String message) {
    super(message);
    this.className = className;
  }

  /** The name of the refused class, as the peer wrote it. */
  public String className() {
    return className;
  }
}
