package io.triplerpc.registry.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.Metadata;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.registry.server.RegistryServer.Right;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * Who may call the registry server, and what: the whole policy, in one place.
 *
 * <p>Callers present a bearer token ({@code authorization: Bearer <token>}). Each known token holds
 * rights: {@link Right#REGISTER} for the methods that change what consumers see (Register, Heartbeat,
 * Unregister, Revoke, PublishMetadata, Map), {@link Right#SUBSCRIBE} for the ones that read it
 * (GetMetadata, Applications, Subscribe). No token, a malformed one or an unknown one fails the call
 * with UNAUTHENTICATED; a known token without the method's right with PERMISSION_DENIED. A registry
 * method this class does not classify is refused, so a method added later is closed until someone
 * decides who may call it. Other services of the server (health, reflection) change and reveal
 * nothing of the registry and stay open, for probes and grpcurl.
 *
 * <p>Tokens are kept as SHA-256 digests and compared with {@link MessageDigest#isEqual} against
 * every known one, so the time taken says nothing about how close a guess was. No message and no
 * log line carries a token.
 *
 * <p>An access with no tokens is open: every call passes and {@link #caller} is null, as before
 * tokens existed.
 *
 * <p>Immutable and thread-safe. The registry server enforces it as its {@link AccessPolicy}: a caller
 * is authenticated (its token's {@link Grant} becomes the call's principal) and checked for the
 * method's right before the registry sees the call.
 */
public final class RegistryAccess {

  /** The other services of a registry server: they change and reveal nothing of the registry. */
  private static final List<String> OPEN_SERVICES = List.of(
      "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection");
  /** The shortest token accepted: shorter ones can be guessed. */
  public static final int MIN_TOKEN_LENGTH = 16;
  /** RFC 6750's b64token: what may follow {@code Bearer } in a header, and so what a token may hold. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/=-]+");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  /** The right each registry method needs, by method name. */
  private static final Map<String, Right> RIGHTS = Map.of(
      "Register", Right.REGISTER,
      "Heartbeat", Right.REGISTER,
      "Unregister", Right.REGISTER,
      "Revoke", Right.REGISTER,
      "PublishMetadata", Right.REGISTER,
      "Map", Right.REGISTER,
      "GetMetadata", Right.SUBSCRIBE,
      "Applications", Right.SUBSCRIBE,
      "Subscribe", Right.SUBSCRIBE);

  private static final RegistryAccess OPEN = new RegistryAccess(List.of());

  /**
   * One token and its rights. Its identity is the caller's: leases belong to the grant whose token
   * created them.
   */
  public static final class Grant implements Principal {
    /** SHA-256 of the token; the token itself is not kept. */
    private final byte[] digest;
    private final Set<Right> rights;
    /** Where the token came from, for logs: "token at line 3 of /etc/tokens" or "token #2". */
    private final String name;

    private Grant(byte[] digest, Set<Right> rights, String name) {
      this.digest = digest;
      this.rights = rights;
      this.name = name;
    }

    /** Whether this token may call the methods that need {@code right}. */
    public boolean has(Right right) {
      return rights.contains(right);
    }

    /** Names the token without revealing it. */
    @Override
    public String getName() {
      return name;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private final List<Grant> grants;

  private RegistryAccess(List<Grant> grants) {
    this.grants = List.copyOf(grants);
  }

  /** Every caller may do everything. */
  public static RegistryAccess open() {
    return OPEN;
  }

  /**
   * Only holders of these tokens, each within its rights.
   *
   * @throws IllegalArgumentException if {@code grants} is empty or holds one token twice
   */
  public static RegistryAccess of(List<Grant> grants) {
    if (grants.isEmpty()) {
      throw new IllegalArgumentException("No tokens: the registry would refuse every caller");
    }
    for (int i = 0; i < grants.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (MessageDigest.isEqual(grants.get(i).digest, grants.get(j).digest)) {
          throw new IllegalArgumentException("The " + grants.get(i) + " is the same as the " + grants.get(j));
        }
      }
    }
    return new RegistryAccess(grants);
  }

  /**
   * A grant of {@code rights} to {@code token}, named {@code name} in logs.
   *
   * @throws IllegalArgumentException if the token is shorter than {@value #MIN_TOKEN_LENGTH}
   *     characters, holds a character a bearer token may not, or no right is given; the message
   *     names the grant, never the token
   */
  public static Grant grant(String token, Set<Right> rights, String name) {
    if (token.length() < MIN_TOKEN_LENGTH) {
      throw new IllegalArgumentException("The " + name + " is shorter than " + MIN_TOKEN_LENGTH
          + " characters (generate one with: openssl rand -hex 32)");
    }
    if (!TOKEN.matcher(token).matches()) {
      throw new IllegalArgumentException("The " + name
          + " holds a character a bearer token may not (allowed: letters, digits and . _ ~ + / = -)");
    }
    if (rights.isEmpty()) {
      throw new IllegalArgumentException("The " + name + " has no right (register, subscribe)");
    }
    return new Grant(sha256(token), Set.copyOf(EnumSet.copyOf(rights)), name);
  }

  /**
   * The grants of a token file: one {@code <token> <right>[,<right>]} per line, rights
   * {@code register} and {@code subscribe}; {@code #} starts a comment, blank lines are skipped.
   *
   * @throws IllegalArgumentException for a line that does not parse (naming the file and the line
   *     number, never the line), a token given twice, or a file without tokens
   * @throws UncheckedIOException if the file cannot be read
   */
  public static List<Grant> readTokenFile(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read token file " + file + ": " + e.getMessage(), e);
    }
    List<Grant> grants = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String where = "token file " + file + ", line " + (i + 1);
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (content.isEmpty()) {
        continue;
      }
      String[] fields = WHITESPACE.split(content);
      if (fields.length != 2) {
        throw new IllegalArgumentException(where + ": expected '<token> <right>[,<right>]' (rights: register,"
            + " subscribe), found " + fields.length + " field(s)");
      }
      Set<Right> rights = EnumSet.noneOf(Right.class);
      for (String right : fields[1].split(",", -1)) {
        switch (right.toLowerCase(Locale.ROOT)) {
          case "register" -> rights.add(Right.REGISTER);
          case "subscribe" -> rights.add(Right.SUBSCRIBE);
          // The field is not echoed: with columns swapped, it would be the token.
          default -> throw new IllegalArgumentException(where
              + ": the second field must be register, subscribe or register,subscribe");
        }
      }
      grants.add(grant(fields[0], rights, "token at line " + (i + 1) + " of " + file));
    }
    if (grants.isEmpty()) {
      throw new IllegalArgumentException("Token file " + file + " holds no token: the registry would refuse every caller");
    }
    return grants;
  }

  /** Whether every caller may do everything (no token was configured). */
  public boolean isOpen() {
    return grants.isEmpty();
  }

  /** How many tokens are known. */
  public int tokenCount() {
    return grants.size();
  }

  /**
   * The server's access policy: every call of a registry method authenticated by its token and
   * checked for the method's right before it reaches the registry; health and reflection open. Null
   * when the access is open.
   */
  public AccessPolicy policy() {
    if (isOpen()) {
      return null;
    }
    AccessPolicy.Builder policy = AccessPolicy.builder(call -> {
      try {
        return CompletableFuture.completedFuture(authenticate(call.requestHeaders()));
      } catch (StatusException e) {
        return CompletableFuture.failedFuture(e);
      }
    }).authorizeByDefault((caller, call) -> {
      checkRight((Grant) caller, call.method().methodName());
      return true;
    });
    OPEN_SERVICES.forEach(policy::permitUnauthenticated);
    return policy.build();
  }

  /**
   * The grant of the registry call this thread is serving, as the server's {@link #policy}
   * authenticated it (see {@link ServerContext#principal}); null when the access is open.
   */
  public Grant caller() {
    if (isOpen()) {
      return null;
    }
    Principal principal = ServerContext.current().principal();
    if (!(principal instanceof Grant)) {
      // Unreachable behind the policy; refuse rather than treat the call as anyone's.
      throw new IllegalStateException("Registry call not authenticated: " + principal);
    }
    return (Grant) principal;
  }

  /** The grant allowing {@code method} to the caller with {@code headers}: {@link #policy}'s two steps. */
  Grant authorize(String method, Metadata headers) throws StatusException {
    Grant grant = authenticate(headers);
    checkRight(grant, method);
    return grant;
  }

  /** Refuses {@code method} to {@code grant} unless it holds the method's right. */
  private static void checkRight(Grant grant, String method) throws StatusException {
    Right needed = RIGHTS.get(method);
    if (needed == null) {
      throw Status.PERMISSION_DENIED.withDescription("Registry method " + method + " is not open to any token")
          .asException();
    }
    if (!grant.has(needed)) {
      throw Status.PERMISSION_DENIED.withDescription("The token may not call " + method + ": it lacks the "
          + needed.name().toLowerCase(Locale.ROOT) + " right").asException();
    }
  }

  /** The grant of the token in {@code headers}. */
  private Grant authenticate(Metadata headers) throws StatusException {
    List<String> values = headers.getAll("authorization");
    if (values.isEmpty()) {
      throw Status.UNAUTHENTICATED.withDescription(
          "The registry needs a token: send the header 'authorization: Bearer <token>'").asException();
    }
    if (values.size() > 1) {
      throw Status.UNAUTHENTICATED.withDescription("More than one authorization header").asException();
    }
    String value = values.get(0).strip();
    int space = value.indexOf(' ');
    if (space < 0 || !value.substring(0, space).equalsIgnoreCase("Bearer")) {
      throw Status.UNAUTHENTICATED.withDescription("The authorization header is not 'Bearer <token>'").asException();
    }
    byte[] digest = sha256(value.substring(space + 1).strip());
    Grant found = null;
    // Every grant is compared, in constant time each: no early exit to time.
    for (Grant grant : grants) {
      if (MessageDigest.isEqual(grant.digest, digest) && found == null) {
        found = grant;
      }
    }
    if (found == null) {
      throw Status.UNAUTHENTICATED.withDescription("Unknown registry token").asException();
    }
    return found;
  }

  private static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JDK has SHA-256", e);
    }
  }
}
