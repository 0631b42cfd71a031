package io.triplerpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Per-call settings of a proxy: deadline, compression, credentials, extra interceptors, and the service
 * version and group called. Immutable; each {@code withX} returns a copy.
 */
public final class CallOptions {

  /** No deadline, no compression, no extra interceptors. */
  public static final CallOptions DEFAULT = new CallOptions(0, null, List.of(), null, null, null, null);

  private final long timeoutNanos;
  private final String compression;
  private final List<ClientInterceptor> interceptors;
  private final Executor executor;
  private final CallCredentials credentials;
  private final String serviceVersion;
  private final String serviceGroup;

  private CallOptions(
      long timeoutNanos, String compression, List<ClientInterceptor> interceptors, Executor executor,
      CallCredentials credentials, String serviceVersion, String serviceGroup) {
    this.timeoutNanos = timeoutNanos;
    this.compression = compression;
    this.interceptors = interceptors;
    this.executor = executor;
    this.credentials = credentials;
    this.serviceVersion = serviceVersion;
    this.serviceGroup = serviceGroup;
  }

  /**
   * A copy whose calls each have a deadline {@code timeout} after they start; both sides enforce it
   * and the call fails with {@link Status#DEADLINE_EXCEEDED} when it passes.
   */
  public CallOptions withTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    long nanos;
    try {
      nanos = timeout.toNanos();
    } catch (ArithmeticException e) {
      nanos = Long.MAX_VALUE;
    }
    return new CallOptions(nanos, compression, interceptors, executor, credentials, serviceVersion, serviceGroup);
  }

  /** A copy whose calls each have a deadline {@code timeout} in {@code unit} after they start. */
  public CallOptions withTimeout(long timeout, TimeUnit unit) {
    return withTimeout(Duration.ofNanos(unit.toNanos(timeout)));
  }

  /** A copy with no deadline. */
  public CallOptions withoutTimeout() {
    return new CallOptions(0, compression, interceptors, executor, credentials, serviceVersion, serviceGroup);
  }

  /**
   * A copy that compresses requests with {@code encoding} ({@code "gzip"} or {@code "identity"});
   * null for none.
   */
  public CallOptions withCompression(String encoding) {
    return new CallOptions(timeoutNanos, encoding, interceptors, executor, credentials, serviceVersion, serviceGroup);
  }

  /** A copy with {@code more} interceptors, run after those already present. */
  public CallOptions withInterceptors(ClientInterceptor... more) {
    List<ClientInterceptor> all = new ArrayList<>(interceptors);
    for (ClientInterceptor interceptor : more) {
      all.add(Objects.requireNonNull(interceptor, "interceptor"));
    }
    return new CallOptions(timeoutNanos, compression, Collections.unmodifiableList(all), executor, credentials,
        serviceVersion, serviceGroup);
  }

  /**
   * A copy whose callbacks run on {@code executor} instead of the client's callback executor. The
   * executor must run tasks one at a time, in order (a single thread does).
   */
  public CallOptions withExecutor(Executor executor) {
    return new CallOptions(timeoutNanos, compression, interceptors, executor, credentials, serviceVersion, serviceGroup);
  }

  /**
   * A copy whose calls carry {@code credentials} (replacing the client's), or, with null, the
   * client's.
   */
  public CallOptions withCallCredentials(CallCredentials credentials) {
    return new CallOptions(timeoutNanos, compression, interceptors, executor, credentials, serviceVersion, serviceGroup);
  }

  /**
   * A copy that calls the service's export of {@code version} (sent as {@code tri-service-version}, the
   * header Dubbo routes on), instead of the version of the interface's {@link TripleService}. Empty calls
   * the export without version; {@code "*"}, through a registry, any version an instance serves (the call
   * then names the one the chosen instance serves); null goes back to the annotation's.
   */
  public CallOptions withServiceVersion(String version) {
    return new CallOptions(timeoutNanos, compression, interceptors, executor, credentials,
        checkExportName(version, "version"), serviceGroup);
  }

  /**
   * A copy that calls the service's export in {@code group} (sent as {@code tri-service-group}), as
   * {@link #withServiceVersion} does for the version.
   */
  public CallOptions withServiceGroup(String group) {
    return new CallOptions(timeoutNanos, compression, interceptors, executor, credentials, serviceVersion,
        checkExportName(group, "group"));
  }

  private static String checkExportName(String value, String what) {
    if (value == null || value.equals("*")) {
      return value;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c <= ' ' || c >= 0x7f || c == '/' || c == ':' || c == ',' || c == '*') {
        throw new IllegalArgumentException("Service " + what + " '" + value + "' has a character not allowed"
            + " (printable ASCII without spaces, '/', ':', ',' or '*'; or \"*\" alone)");
      }
    }
    return value;
  }

  /** The service version set by {@link #withServiceVersion}, or null for the annotation's. */
  public String serviceVersion() {
    return serviceVersion;
  }

  /** The service group set by {@link #withServiceGroup}, or null for the annotation's. */
  public String serviceGroup() {
    return serviceGroup;
  }

  /** The credentials set by {@link #withCallCredentials}, or null for the client's. */
  public CallCredentials callCredentials() {
    return credentials;
  }

  /** The executor set by {@link #withExecutor}, or null for the client's. */
  public Executor executor() {
    return executor;
  }

  /** The timeout in nanoseconds, or 0 for none. */
  public long timeoutNanos() {
    return timeoutNanos;
  }

  /** The request compression, or null. */
  public String compression() {
    return compression;
  }

  /** Extra interceptors, outermost first. */
  public List<ClientInterceptor> interceptors() {
    return interceptors;
  }

  @Override
  public String toString() {
    return "CallOptions{timeoutNanos=" + timeoutNanos + ", compression=" + compression
        + ", interceptors=" + interceptors.size()
        + (serviceVersion == null ? "" : ", serviceVersion=" + serviceVersion)
        + (serviceGroup == null ? "" : ", serviceGroup=" + serviceGroup) + '}';
  }
}
