package io.triplerpc.registry.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.registry.server.RegistryServer.Right;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry's access policy on its own: the token file, and which token may call what. */
class RegistryAccessTest {

  private static final String PROVIDER = "provider-token-0123456789abcdef";
  private static final String CONSUMER = "consumer-token-0123456789abcdef";
  private static final String BOTH = "admin-token-0123456789abcdef";

  @TempDir Path directory;

  private Path file(String... lines) throws IOException {
    return Files.write(directory.resolve("tokens"), List.of(lines));
  }

  private static Metadata bearer(String token) {
    return new Metadata().put("authorization", "Bearer " + token);
  }

  private static Status.Code refusal(RegistryAccess access, String method, Metadata headers) {
    return assertThrows(StatusException.class, () -> access.authorize(method, headers)).status().code();
  }

  @Test
  void aTokenFileWithCommentsAndBlankLinesGrantsEachTokenItsRights() throws Exception {
    RegistryAccess access = RegistryAccess.of(RegistryAccess.readTokenFile(file(
        "# registry tokens",
        "",
        PROVIDER + "  register      # the providers",
        "   " + CONSUMER + "\tsubscribe",
        BOTH + " Register,SUBSCRIBE")));
    assertEquals(3, access.tokenCount());

    assertEquals("token at line 3 of " + directory.resolve("tokens"), access.authorize("Register", bearer(PROVIDER)).toString());
    assertEquals(Status.Code.PERMISSION_DENIED, refusal(access, "Subscribe", bearer(PROVIDER)));
    access.authorize("Subscribe", bearer(CONSUMER));
    assertEquals(Status.Code.PERMISSION_DENIED, refusal(access, "Revoke", bearer(CONSUMER)));
    for (String method : List.of("Register", "Heartbeat", "Unregister", "Revoke", "PublishMetadata", "Map",
        "GetMetadata", "Applications", "Subscribe")) {
      access.authorize(method, bearer(BOTH));
    }
  }

  @Test
  void badLinesNameTheFileAndTheLineButNeverTheToken() throws Exception {
    assertBadLine(3, "expected '<token> <right>", file("# ok", PROVIDER + " register", PROVIDER + "x"));
    assertBadLine(2, "register, subscribe or register,subscribe", file("", PROVIDER + " admin"));
    // Columns swapped: the "right" is the token, and must not be shown either.
    assertBadLine(1, "register, subscribe or register,subscribe", file("register " + PROVIDER));
    assertBadLine(1, "shorter than 16 characters", file("short register"));
    assertBadLine(2, "a character a bearer token may not", file(PROVIDER + " register", "with\"quote-0123456789 register"));
    assertBadLine(1, "found 3 field(s)", file(PROVIDER + " register subscribe"));
  }

  private static void assertBadLine(int line, String expected, Path file) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegistryAccess.readTokenFile(file));
    assertTrue(e.getMessage().contains("line " + line), e.getMessage());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(e.getMessage().contains(PROVIDER), e.getMessage());
    assertFalse(e.getMessage().contains("0123456789"), e.getMessage());
  }

  @Test
  void aFileWithoutTokensOrWithOneTokenTwiceIsRefused() throws Exception {
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> RegistryAccess.readTokenFile(file("# nothing yet", "")));
    assertTrue(empty.getMessage().contains("holds no token"), empty.getMessage());

    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> RegistryAccess.of(RegistryAccess.readTokenFile(file(PROVIDER + " register", "", PROVIDER + " subscribe"))));
    assertTrue(twice.getMessage().contains("line 3") && twice.getMessage().contains("line 1"), twice.getMessage());
    assertFalse(twice.getMessage().contains(PROVIDER), twice.getMessage());

    assertThrows(UncheckedIOException.class, () -> RegistryAccess.readTokenFile(directory.resolve("missing")));
  }

  @Test
  void missingMalformedAndUnknownTokensAreUnauthenticated() {
    RegistryAccess access = RegistryAccess.of(List.of(RegistryAccess.grant(PROVIDER, Set.of(Right.REGISTER), "token #1")));
    assertEquals(Status.Code.UNAUTHENTICATED, refusal(access, "Register", new Metadata()));
    assertEquals(Status.Code.UNAUTHENTICATED, refusal(access, "Register", new Metadata().put("authorization", PROVIDER)));
    assertEquals(Status.Code.UNAUTHENTICATED,
        refusal(access, "Register", new Metadata().put("authorization", "Basic " + PROVIDER)));
    assertEquals(Status.Code.UNAUTHENTICATED, refusal(access, "Register", bearer(CONSUMER)));
    assertEquals(Status.Code.UNAUTHENTICATED,
        refusal(access, "Register", bearer(PROVIDER).put("authorization", "Bearer " + PROVIDER)));
    // The scheme is case-insensitive (RFC 7235).
    access.authorize("Register", new Metadata().put("authorization", "bearer " + PROVIDER));
    // A registry method no right names is closed to every token.
    assertEquals(Status.Code.PERMISSION_DENIED, refusal(access, "Compact", bearer(PROVIDER)));
  }

  @Test
  void anAccessWithoutTokensIsOpen() {
    assertTrue(RegistryAccess.open().isOpen());
    assertEquals(null, RegistryAccess.open().caller());
  }
}
