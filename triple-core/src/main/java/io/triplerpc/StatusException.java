package io.triplerpc;

/**
 * A call that ended with a non-OK {@link Status}, with the trailers the peer sent (or that a service
 * wants to send). Thrown by proxies and passed to {@link StreamObserver#onError}; a service may throw
 * it to choose the status its caller sees.
 */
public final class StatusException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient Status status;
  private final transient Metadata trailers;

  /** An exception for {@code status} with no trailers. */
  public StatusException(Status status) {
    this(status, null);
  }

  /** An exception for {@code status} carrying {@code trailers} (null for none). */
  public StatusException(Status status, Metadata trailers) {
    super(status.toString(), status.cause());
    this.status = status;
    this.trailers = trailers;
  }

  public Status status() {
    return status;
  }

  /** The trailers, never null (empty when there were none). */
  public Metadata trailers() {
    return trailers != null ? trailers : new Metadata();
  }
}
