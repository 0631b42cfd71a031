package io.triplerpc.serialization.security;

import java.util.List;
import java.util.Map;

/**
 * A declared type with the openings attackers look for: fields of type {@code Object}, {@code List<Object>}
 * and {@code Map<String, Object>}, which name no class and so let the stream name any.
 */
public class Envelope {
  public String to;
  public Object attachment;
  public List<Object> extras;
  public Map<String, Object> headers;
  public Letter letter;

  /** A nested declared class: reachable through {@link Envelope#letter}. */
  public static class Letter {
    public String text;
    public Stamp stamp;
  }

  /** Reachable only as a field of a field. */
  public static final class Stamp {
    public int cents;
  }
}
