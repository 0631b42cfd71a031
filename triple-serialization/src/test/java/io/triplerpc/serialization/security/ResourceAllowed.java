package io.triplerpc.serialization.security;

/** Named by this module's test {@code META-INF/triple/serialize.allowlist}. */
public class ResourceAllowed {
  public String value;
}
