package io.triplerpc.registry.internal.remote;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The one place a registry client attaches its token: {@code authorization: Bearer <token>} on
 * every call to the registry server. To be replaced by core's call credentials once they exist.
 * Immutable; {@link #toString} never shows the token.
 */
public final class BearerToken implements ClientInterceptor {

  private final String header;

  private BearerToken(String token) {
    this.header = "Bearer " + token;
  }

  /**
   * {@code token}, trimmed.
   *
   * @throws IllegalArgumentException if it is empty or holds whitespace inside
   */
  public static BearerToken of(String token) {
    String trimmed = Objects.requireNonNull(token, "token").strip();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("The registry token is empty");
    }
    if (trimmed.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("The registry token holds whitespace");
    }
    return new BearerToken(trimmed);
  }

  /**
   * The token in {@code file}: its content, trimmed (a trailing newline is fine).
   *
   * @throws IllegalArgumentException if the file holds no token, or more than one word
   * @throws UncheckedIOException if it cannot be read
   */
  public static BearerToken fromFile(Path file) {
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read registry token file " + file + ": " + e.getMessage(), e);
    }
    String token = content.strip();
    if (token.isEmpty() || token.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("Registry token file " + file + " must hold one token and nothing else");
    }
    return new BearerToken(token);
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
    return new ForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        headers.put("authorization", header);
        super.start(listener, headers);
      }
    };
  }

  @Override
  public String toString() {
    return "BearerToken{****}";
  }
}
