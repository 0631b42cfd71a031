package io.triplerpc;

import com.google.protobuf.Any;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of a call: one of gRPC's 17 codes, an optional description for humans, and an optional
 * local cause (never sent on the wire). Immutable.
 */
public final class Status {

  /** gRPC status codes, with the numeric values the wire carries in {@code grpc-status}. */
  public enum Code {
    OK(0),
    CANCELLED(1),
    UNKNOWN(2),
    INVALID_ARGUMENT(3),
    DEADLINE_EXCEEDED(4),
    NOT_FOUND(5),
    ALREADY_EXISTS(6),
    PERMISSION_DENIED(7),
    RESOURCE_EXHAUSTED(8),
    FAILED_PRECONDITION(9),
    ABORTED(10),
    OUT_OF_RANGE(11),
    UNIMPLEMENTED(12),
    INTERNAL(13),
    UNAVAILABLE(14),
    DATA_LOSS(15),
    UNAUTHENTICATED(16);

    private static final Code[] BY_VALUE = values();

    private final int value;

    Code(int value) {
      this.value = value;
    }

    /** The number sent in {@code grpc-status}. */
    public int value() {
      return value;
    }

    /** The status with this code and no description. */
    public Status toStatus() {
      return BY_CODE[ordinal()];
    }

    /** The code for a {@code grpc-status} number; {@link #UNKNOWN} for numbers outside 0..16. */
    public static Code fromValue(int value) {
      return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : UNKNOWN;
    }
  }

  // Built here, not in Code's constructor, so neither class needs the other half-initialized.
  private static final Status[] BY_CODE = new Status[Code.BY_VALUE.length];

  static {
    for (Code code : Code.BY_VALUE) {
      BY_CODE[code.ordinal()] = new Status(code, null, null, List.of());
    }
  }

  public static final Status OK = Code.OK.toStatus();
  public static final Status CANCELLED = Code.CANCELLED.toStatus();
  public static final Status UNKNOWN = Code.UNKNOWN.toStatus();
  public static final Status INVALID_ARGUMENT = Code.INVALID_ARGUMENT.toStatus();
  public static final Status DEADLINE_EXCEEDED = Code.DEADLINE_EXCEEDED.toStatus();
  public static final Status NOT_FOUND = Code.NOT_FOUND.toStatus();
  public static final Status ALREADY_EXISTS = Code.ALREADY_EXISTS.toStatus();
  public static final Status PERMISSION_DENIED = Code.PERMISSION_DENIED.toStatus();
  public static final Status RESOURCE_EXHAUSTED = Code.RESOURCE_EXHAUSTED.toStatus();
  public static final Status FAILED_PRECONDITION = Code.FAILED_PRECONDITION.toStatus();
  public static final Status ABORTED = Code.ABORTED.toStatus();
  public static final Status OUT_OF_RANGE = Code.OUT_OF_RANGE.toStatus();
  public static final Status UNIMPLEMENTED = Code.UNIMPLEMENTED.toStatus();
  public static final Status INTERNAL = Code.INTERNAL.toStatus();
  public static final Status UNAVAILABLE = Code.UNAVAILABLE.toStatus();
  public static final Status DATA_LOSS = Code.DATA_LOSS.toStatus();
  public static final Status UNAUTHENTICATED = Code.UNAUTHENTICATED.toStatus();

  private final Code code;
  private final String description;
  private final Throwable cause;
  private final List<Any> details;

  private Status(Code code, String description, Throwable cause, List<Any> details) {
    this.code = code;
    this.description = description;
    this.cause = cause;
    this.details = details;
  }

  /** The status for a {@code grpc-status} number. */
  public static Status fromCodeValue(int value) {
    return Code.fromValue(value).toStatus();
  }

  /**
   * The status a throwable stands for: the one it (or a cause) carries as a {@link StatusException},
   * otherwise {@link #UNKNOWN} with the throwable's message and the throwable as cause.
   */
  public static Status fromThrowable(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof StatusException) {
        return ((StatusException) c).status();
      }
    }
    String message = t.getMessage();
    return UNKNOWN.withDescription(message != null ? message : t.getClass().getName()).withCause(t);
  }

  public Code code() {
    return code;
  }

  /** The description for humans, or null. */
  public String description() {
    return description;
  }

  /** The local cause, or null; never sent to the peer. */
  public Throwable cause() {
    return cause;
  }

  public boolean isOk() {
    return code == Code.OK;
  }

  /**
   * Typed details of an error (such as {@code google.rpc.BadRequest} or {@code google.rpc.RetryInfo}),
   * sent to the peer as gRPC's {@code grpc-status-details-bin} ({@code google.rpc.Status}) or as the
   * {@code details} of a Connect error; empty for none.
   */
  public List<Any> details() {
    return details;
  }

  /** A copy with {@code details} in place of this one's. */
  public Status withDetails(List<Any> details) {
    return new Status(code, description, cause, List.copyOf(details));
  }

  /** A copy with {@code description} (null clears it). */
  public Status withDescription(String description) {
    return Objects.equals(this.description, description) ? this : new Status(code, description, cause, details);
  }

  /** A copy whose description is this one's followed by {@code more}. */
  public Status augmentDescription(String more) {
    if (more == null) {
      return this;
    }
    return new Status(code, description == null ? more : description + "\n" + more, cause, details);
  }

  /** A copy with {@code cause} (null clears it). */
  public Status withCause(Throwable cause) {
    return this.cause == cause ? this : new Status(code, description, cause, details);
  }

  /** An exception carrying this status and no trailers. */
  public StatusException asException() {
    return new StatusException(this, null);
  }

  /** An exception carrying this status and {@code trailers} (may be null). */
  public StatusException asException(Metadata trailers) {
    return new StatusException(this, trailers);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Status)) {
      return false;
    }
    Status other = (Status) o;
    return code == other.code && Objects.equals(description, other.description) && cause == other.cause
        && details.equals(other.details);
  }

  @Override
  public int hashCode() {
    return Objects.hash(code, description);
  }

  @Override
  public String toString() {
    return description == null ? code.name() : code + ": " + description;
  }
}
