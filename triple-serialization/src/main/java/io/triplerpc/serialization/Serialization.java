package io.triplerpc.serialization;

/**
 * A family of message encodings, such as protobuf. Implementations are found with
 * {@link java.util.ServiceLoader} and must be thread-safe.
 */
public interface Serialization {

  /** A short, stable name for logs and configuration, such as {@code "protobuf"}. */
  String name();

  /** Whether this serialization can carry values of {@code type}. */
  boolean supports(Class<?> type);

  /**
   * Returns the codec for {@code type}; called once per message type when a service is exported or
   * referred, never per call.
   *
   * @throws IllegalArgumentException if {@link #supports} is false for {@code type}
   */
  <T> MessageCodec<T> codecFor(Class<T> type);
}
