package io.triplerpc.serialization.model;

/** A runtime exception. */
public class OrderRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OrderRejectedException() {}

  public OrderRejectedException(String message) {
    super(message);
  }
}
