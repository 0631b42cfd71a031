package io.triplerpc.serialization.object;

/**
 * Stands in for an exception a service threw whose class the reading side has but cannot construct (JSON
 * needs a no-argument or single-{@code String} constructor): it keeps the class name, message, stack trace,
 * cause and suppressed exceptions the peer sent. Hessian constructs any class and never needs it.
 */
public class RemoteServiceException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The name of the class the service threw. */
  private final String remoteClassName;

  /** Creates the stand-in for an exception of class {@code remoteClassName} with {@code message}. */
  public RemoteServiceException(String remoteClassName, String message) {
    super(message);
    this.remoteClassName = remoteClassName;
  }

  /** The name of the class the service threw. */
  public String remoteClassName() {
    return remoteClassName;
  }

  @Override
  public String toString() {
    String message = getLocalizedMessage();
    return remoteClassName + (message == null ? "" : ": " + message) + " (remote)";
  }
}
