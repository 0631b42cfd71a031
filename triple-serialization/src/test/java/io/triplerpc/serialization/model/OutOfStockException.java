package io.triplerpc.serialization.model;

import java.math.BigDecimal;

/** A checked exception with a field of its own. */
public class OutOfStockException extends Exception {
  private static final long serialVersionUID = 1L;

  private BigDecimal missing;

  public OutOfStockException() {}

  /** What JSON constructs it with: Jackson can only set a {@code Throwable}'s message through a constructor. */
  public OutOfStockException(String message) {
    super(message);
  }

  public OutOfStockException(String message, BigDecimal missing, Throwable cause) {
    super(message, cause);
    this.missing = missing;
  }

  public BigDecimal missing() {
    return missing;
  }
}
