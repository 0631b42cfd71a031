package io.triplerpc.serialization.security;

import java.io.Serializable;

/**
 * A class no signature names, that the tests allow by name: it is read, and its {@code readResolve} runs
 * (tripping the {@link Tripwire}), as for any allowed class.
 */
public class TrustedValue implements Serializable {

  private static final long serialVersionUID = 1L;

  private String label;

  public TrustedValue() {}

  public String label() {
    return label;
  }

  private Object readResolve() {
    Tripwire.trip("TrustedValue.readResolve " + label);
    return this;
  }
}
