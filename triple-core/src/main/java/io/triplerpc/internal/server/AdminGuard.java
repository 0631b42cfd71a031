package io.triplerpc.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.HttpGetHandler;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.PeerInfo;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.serialization.MessageCodec;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Who may use an admin endpoint bound beyond loopback: each request is authenticated by an {@link AccessPolicy}'s
 * {@link io.triplerpc.Authenticator} as if it were a call of {@code triple.admin.Admin/<name>} ({@code name} the
 * path's segment, {@code page} for {@code /}), then authorized by the policy's rule for that name. A request
 * without a principal gets 401, one the rule refuses 403. On loopback, without a policy, every request passes.
 */
final class AdminGuard {

  /** The service name an access policy gives the admin endpoint's rules under. */
  static final String SERVICE = "triple.admin.Admin";
  /** How long a request waits for an asynchronous authenticator. */
  private static final long AUTHENTICATION_SECONDS = 10;
  private static final Map<String, String> CHALLENGE = Map.of("www-authenticate", "Bearer", "cache-control", "no-store");

  /** Every request passes. */
  static final AdminGuard OPEN = new AdminGuard(null);

  /** The policy every request must pass, or null. */
  private final AccessPolicy policy;

  AdminGuard(AccessPolicy policy) {
    this.policy = policy;
  }

  /** {@code handler} of {@code path}, behind the policy. */
  HttpGetHandler guard(String path, HttpGetHandler handler) {
    if (policy == null) {
      return handler;
    }
    MethodDescriptor<Object, Object> method = MethodDescriptor.of(SERVICE, path.equals("/") ? "page" : path.substring(1),
        MethodType.UNARY, NoMessages.INSTANCE, NoMessages.INSTANCE, true);
    return request -> {
      AdminRequest context = new AdminRequest(method, request);
      Principal principal;
      try {
        principal = policy.authenticator().authenticate(context).toCompletableFuture()
            .get(AUTHENTICATION_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        String reason = cause instanceof StatusException ? ((StatusException) cause).status().description()
            : "Authentication failed";
        return refusal(401, reason);
      } catch (TimeoutException e) {
        return refusal(503, "The authenticator did not answer in " + AUTHENTICATION_SECONDS + " s");
      }
      if (principal == null) {
        return refusal(401, "Not authenticated");
      }
      context.principal = principal;
      if (!policy.authorization(method).test(principal, context)) {
        return refusal(403, principal.getName() + " may not use " + method.fullMethodName());
      }
      return handler.get(request);
    };
  }

  private static HttpGetHandler.Response refusal(int status, String reason) {
    return new HttpGetHandler.Response(status, "text/plain; charset=utf-8",
        ((reason == null ? "Not authenticated" : reason) + "\n").getBytes(StandardCharsets.UTF_8),
        status == 401 ? CHALLENGE : Map.of("cache-control", "no-store"));
  }

  /** An admin request as an authenticator sees it: its headers and connection. */
  private static final class AdminRequest extends ServerContext {
    private final MethodDescriptor<?, ?> method;
    private final HttpGetHandler.Request request;
    private final Metadata responseHeaders = new Metadata();
    private final Metadata responseTrailers = new Metadata();
    private Principal principal;

    AdminRequest(MethodDescriptor<?, ?> method, HttpGetHandler.Request request) {
      this.method = method;
      this.request = request;
    }

    @Override
    public MethodDescriptor<?, ?> method() {
      return method;
    }

    @Override
    public Metadata requestHeaders() {
      return request.headers();
    }

    @Override
    public Metadata responseHeaders() {
      return responseHeaders;
    }

    @Override
    public Metadata responseTrailers() {
      return responseTrailers;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public long remainingNanos() {
      return Long.MAX_VALUE;
    }

    @Override
    public boolean isRequestCompressed() {
      return false;
    }

    @Override
    public void setResponseCompression(String encoding) {}

    @Override
    public void setMessageCompression(boolean enabled) {}

    @Override
    public SocketAddress remoteAddress() {
      PeerInfo peer = request.peer();
      return peer == null ? null : peer.remoteAddress();
    }

    @Override
    public PeerInfo peer() {
      return request.peer();
    }

    @Override
    public Principal principal() {
      return principal;
    }

    @Override
    public void addEndListener(Consumer<Status> listener) {}
  }

  /** The codec of a descriptor that never carries a message. */
  private enum NoMessages implements MessageCodec<Object> {
    INSTANCE;

    @Override
    public String subtype() {
      return "none";
    }

    @Override
    public int serializedSize(Object value) {
      throw new UnsupportedOperationException("admin requests carry no message");
    }

    @Override
    public void write(Object value, OutputStream out) {
      throw new UnsupportedOperationException("admin requests carry no message");
    }

    @Override
    public Object read(InputStream in) {
      throw new UnsupportedOperationException("admin requests carry no message");
    }
  }
}
