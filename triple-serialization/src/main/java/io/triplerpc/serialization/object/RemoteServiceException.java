package io.triplerpc.serialization.object;

/**
 * Stands in for an exception a service threw whose class the reading side may not or cannot construct:
 * the server sends it in place of an exception (or a cause) no signature of the service reaches, which
 * clients refuse to build; a JSON reader makes one for a class with neither a no-argument nor a
 * single-{@code String} constructor. It keeps the class name, message, stack trace, cause and suppressed
 * exceptions.
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

  /**
   * The stand-in a writer sends for {@code thrown} when readers may not build its class: its class
   * name, message, stack trace, cause and suppressed exceptions (which the writer in turn writes as
   * themselves or as stand-ins).
   */
  public static RemoteServiceException standingIn(Throwable thrown) {
    RemoteServiceException standIn = new RemoteServiceException(thrown.getClass().getName(), thrown.getMessage());
    standIn.setStackTrace(thrown.getStackTrace());
    if (thrown.getCause() != null) {
      standIn.initCause(thrown.getCause());
    }
    for (Throwable suppressed : thrown.getSuppressed()) {
      standIn.addSuppressed(suppressed);
    }
    return standIn;
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
