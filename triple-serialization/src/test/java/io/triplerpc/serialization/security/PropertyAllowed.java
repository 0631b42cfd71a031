package io.triplerpc.serialization.security;

/** Allowed through the system property in one test. */
public class PropertyAllowed {
  public String value;
}
