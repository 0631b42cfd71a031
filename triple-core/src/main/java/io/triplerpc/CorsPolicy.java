package io.triplerpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which web pages may call a server from a browser (CORS): their origins, the HTTP methods (POST;
 * GET if allowed), the extra request headers they may send and the response headers they may read. Without a policy, or for an origin it does not
 * name, the server answers no preflight and adds no CORS header, so browsers keep other origins out.
 * The headers Connect and gRPC-Web need are always allowed and exposed. Immutable.
 *
 * <pre>{@code
 * TripleServer.builder().cors(CorsPolicy.builder().allowOrigins("https://app.example.com").build())
 * }</pre>
 */
public final class CorsPolicy {

  /** Request headers the web protocols send. */
  private static final List<String> PROTOCOL_REQUEST_HEADERS = List.of(
      "content-type", "connect-protocol-version", "connect-timeout-ms", "connect-content-encoding",
      "connect-accept-encoding", "grpc-timeout", "grpc-encoding", "grpc-accept-encoding", "x-grpc-web",
      "x-user-agent");
  /** Response headers the web protocols' clients read. */
  private static final List<String> PROTOCOL_RESPONSE_HEADERS = List.of(
      "grpc-status", "grpc-message", "grpc-status-details-bin", "grpc-encoding", "grpc-accept-encoding",
      "connect-content-encoding", "connect-accept-encoding", "content-encoding");

  private final Set<String> origins;
  private final boolean anyOrigin;
  private final Set<String> methods;
  private final Set<String> requestHeaders;
  private final Set<String> responseHeaders;
  private final boolean allowCredentials;
  private final Duration maxAge;

  private CorsPolicy(Builder builder) {
    this.origins = Set.copyOf(builder.origins);
    this.anyOrigin = builder.origins.contains("*");
    this.methods = java.util.Collections.unmodifiableSet(new TreeSet<>(builder.methods));
    TreeSet<String> request = new TreeSet<>(PROTOCOL_REQUEST_HEADERS);
    request.addAll(builder.requestHeaders);
    this.requestHeaders = java.util.Collections.unmodifiableSet(request);
    TreeSet<String> response = new TreeSet<>(PROTOCOL_RESPONSE_HEADERS);
    response.addAll(builder.responseHeaders);
    this.responseHeaders = java.util.Collections.unmodifiableSet(response);
    this.allowCredentials = builder.allowCredentials;
    this.maxAge = builder.maxAge;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether pages of {@code origin} (such as {@code https://app.example.com}) may call the server. */
  public boolean allowsOrigin(String origin) {
    return origin != null && (anyOrigin || origins.contains(origin));
  }

  /** Whether pages may call with HTTP {@code method}: POST, and GET (Connect's, for idempotent methods) if allowed. */
  public boolean allowsMethod(String method) {
    return methods.contains(method);
  }

  /** The HTTP methods pages may call with. */
  public Set<String> methods() {
    return methods;
  }

  /** Whether a preflight may ask for {@code header} (any case). */
  public boolean allowsRequestHeader(String header) {
    return requestHeaders.contains(header.trim().toLowerCase(Locale.ROOT));
  }

  /** The request headers pages may send, lower case: the protocols' and the ones allowed. */
  public Set<String> requestHeaders() {
    return requestHeaders;
  }

  /** The response headers pages may read, lower case: the protocols' and the ones exposed. */
  public Set<String> responseHeaders() {
    return responseHeaders;
  }

  /** Whether pages may send cookies and HTTP authentication with their calls. */
  public boolean allowCredentials() {
    return allowCredentials;
  }

  /** How long a browser may keep a preflight's answer. */
  public Duration maxAge() {
    return maxAge;
  }

  /** Builds a {@link CorsPolicy}; nothing allowed until told. */
  public static final class Builder {

    private final List<String> origins = new ArrayList<>();
    private final Set<String> methods = new TreeSet<>(Set.of("POST"));
    private final List<String> requestHeaders = new ArrayList<>();
    private final List<String> responseHeaders = new ArrayList<>();
    private boolean allowCredentials;
    private Duration maxAge = Duration.ofHours(2);

    private Builder() {}

    /**
     * Origins whose pages may call, each {@code scheme://host[:port]} as browsers send it, or {@code *}
     * for any (not with credentials).
     */
    public Builder allowOrigins(String... origins) {
      for (String origin : origins) {
        Objects.requireNonNull(origin, "origin");
        if (!origin.equals("*") && (!origin.contains("://") || origin.endsWith("/"))) {
          throw new IllegalArgumentException("Not an origin (scheme://host[:port], no path): " + origin);
        }
        this.origins.add(origin);
      }
      return this;
    }

    /**
     * The HTTP methods pages may call with, in place of POST alone: add GET for Connect's GET of
     * idempotent methods (which browsers and CDNs may cache).
     *
     * @throws IllegalArgumentException for a method calls do not use
     */
    public Builder allowMethods(String... methods) {
      this.methods.clear();
      for (String method : methods) {
        if (!method.equals("GET") && !method.equals("POST")) {
          throw new IllegalArgumentException("Calls are POST, or GET for Connect: not " + method);
        }
        this.methods.add(method);
      }
      return this;
    }

    /** Request headers pages may send beyond the protocols' own (application metadata). */
    public Builder allowRequestHeaders(String... headers) {
      for (String header : headers) {
        requestHeaders.add(header.toLowerCase(Locale.ROOT));
      }
      return this;
    }

    /** Response headers and trailers pages may read beyond the protocols' own. */
    public Builder exposeResponseHeaders(String... headers) {
      for (String header : headers) {
        responseHeaders.add(header.toLowerCase(Locale.ROOT));
      }
      return this;
    }

    /** Lets pages send cookies and HTTP authentication; off by default. */
    public Builder allowCredentials(boolean allow) {
      this.allowCredentials = allow;
      return this;
    }

    /** How long browsers may cache a preflight's answer; 2 hours by default (Chromium's cap). */
    public Builder maxAge(Duration maxAge) {
      if (maxAge.isNegative()) {
        throw new IllegalArgumentException("maxAge must not be negative: " + maxAge);
      }
      this.maxAge = maxAge;
      return this;
    }

    /**
     * @throws IllegalStateException with credentials and the {@code *} origin, which browsers refuse
     */
    public CorsPolicy build() {
      if (allowCredentials && origins.contains("*")) {
        throw new IllegalStateException("Credentials need named origins: browsers refuse them with *");
      }
      return new CorsPolicy(this);
    }
  }
}
