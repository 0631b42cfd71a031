package io.triplerpc.serialization;

import java.io.IOException;

/**
 * The bytes read are not a valid message of the codec's type, and the sender can fix that (malformed
 * JSON, an unknown field): callers report it as the sender's error, not as their own failure.
 */
public class MalformedMessageException extends IOException {

  private static final long serialVersionUID = 1L;

  public MalformedMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}
