package io.triplerpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Per-call settings of a proxy: deadline, compression, credentials, extra interceptors, the service
 * version and group called, and the serializations plain Java requests may be written in. Immutable; each
 * {@code withX} returns a copy.
 */
public final class CallOptions {

  /** No deadline, no compression, no extra interceptors. */
  public static final CallOptions DEFAULT = new CallOptions(new Fields());

  private final long timeoutNanos;
  private final String compression;
  private final List<ClientInterceptor> interceptors;
  private final Executor executor;
  private final CallCredentials credentials;
  private final String serviceVersion;
  private final String serviceGroup;
  private final String preferredSerializations;
  private final boolean propagation;
  private final String hashKey;
  private final int[] hashArguments;
  private final String tag;

  private CallOptions(Fields fields) {
    this.timeoutNanos = fields.timeoutNanos;
    this.compression = fields.compression;
    this.interceptors = fields.interceptors;
    this.executor = fields.executor;
    this.credentials = fields.credentials;
    this.serviceVersion = fields.serviceVersion;
    this.serviceGroup = fields.serviceGroup;
    this.preferredSerializations = fields.preferredSerializations;
    this.propagation = fields.propagation;
    this.hashKey = fields.hashKey;
    this.hashArguments = fields.hashArguments;
    this.tag = fields.tag;
  }

  /** The fields of a copy in the making: each {@code withX} changes one, then freezes them in a new instance. */
  private static final class Fields {
    long timeoutNanos;
    String compression;
    List<ClientInterceptor> interceptors = List.of();
    Executor executor;
    CallCredentials credentials;
    String serviceVersion;
    String serviceGroup;
    String preferredSerializations;
    boolean propagation = true;
    String hashKey;
    int[] hashArguments;
    String tag;
  }

  private Fields copy() {
    Fields fields = new Fields();
    fields.timeoutNanos = timeoutNanos;
    fields.compression = compression;
    fields.interceptors = interceptors;
    fields.executor = executor;
    fields.credentials = credentials;
    fields.serviceVersion = serviceVersion;
    fields.serviceGroup = serviceGroup;
    fields.preferredSerializations = preferredSerializations;
    fields.propagation = propagation;
    fields.hashKey = hashKey;
    fields.hashArguments = hashArguments;
    fields.tag = tag;
    return fields;
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
    Fields copy = copy();
    copy.timeoutNanos = nanos;
    return new CallOptions(copy);
  }

  /** A copy whose calls each have a deadline {@code timeout} in {@code unit} after they start. */
  public CallOptions withTimeout(long timeout, TimeUnit unit) {
    return withTimeout(Duration.ofNanos(unit.toNanos(timeout)));
  }

  /** A copy with no deadline. */
  public CallOptions withoutTimeout() {
    Fields copy = copy();
    copy.timeoutNanos = 0;
    return new CallOptions(copy);
  }

  /**
   * A copy that compresses requests with {@code encoding} ({@code "gzip"} or {@code "identity"});
   * null for none.
   */
  public CallOptions withCompression(String encoding) {
    Fields copy = copy();
    copy.compression = encoding;
    return new CallOptions(copy);
  }

  /** A copy with {@code more} interceptors, run after those already present. */
  public CallOptions withInterceptors(ClientInterceptor... more) {
    List<ClientInterceptor> all = new ArrayList<>(interceptors);
    for (ClientInterceptor interceptor : more) {
      all.add(Objects.requireNonNull(interceptor, "interceptor"));
    }
    Fields copy = copy();
    copy.interceptors = Collections.unmodifiableList(all);
    return new CallOptions(copy);
  }

  /**
   * A copy whose callbacks run on {@code executor} instead of the client's callback executor. The
   * executor must run tasks one at a time, in order (a single thread does).
   */
  public CallOptions withExecutor(Executor executor) {
    Fields copy = copy();
    copy.executor = executor;
    return new CallOptions(copy);
  }

  /**
   * A copy whose calls carry {@code credentials} (replacing the client's), or, with null, the
   * client's.
   */
  public CallOptions withCallCredentials(CallCredentials credentials) {
    Fields copy = copy();
    copy.credentials = credentials;
    return new CallOptions(copy);
  }

  /**
   * A copy that calls the service's export of {@code version} (sent as {@code tri-service-version}, the
   * header Dubbo routes on), instead of the version of the interface's {@link TripleService}. Empty calls
   * the export without version; {@code "*"}, through a registry, any version an instance serves (the call
   * then names the one the chosen instance serves); null goes back to the annotation's.
   */
  public CallOptions withServiceVersion(String version) {
    Fields copy = copy();
    copy.serviceVersion = checkExportName(version, "version");
    return new CallOptions(copy);
  }

  /**
   * A copy that calls the service's export in {@code group} (sent as {@code tri-service-group}), as
   * {@link #withServiceVersion} does for the version.
   */
  public CallOptions withServiceGroup(String group) {
    Fields copy = copy();
    copy.serviceGroup = checkExportName(group, "group");
    return new CallOptions(copy);
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

  /**
   * A copy whose plain Java requests are written in one of {@code serializations} (comma-separated names,
   * such as {@code "fastjson2,hessian2"}, the most preferred first): the interface's own serialization if
   * listed, else the first listed that the client has installed (fastjson2 only with
   * {@code triple-serialization-fastjson2}); the interface's own if none is. A registry sets it
   * per call from what the chosen provider advertises (Dubbo's {@code prefer.serialization}); null writes
   * the interface's own. Protobuf messages are not affected.
   */
  public CallOptions withPreferredSerializations(String serializations) {
    Fields copy = copy();
    copy.preferredSerializations = serializations;
    return new CallOptions(copy);
  }

  /**
   * A copy whose calls, made while a service handles a call, do not inherit that call's deadline nor end
   * when it ends (see {@link ServerContext}): for work that must outlive the call that started it.
   */
  public CallOptions withoutPropagation() {
    Fields copy = copy();
    copy.propagation = false;
    return new CallOptions(copy);
  }

  /**
   * A copy whose calls go, under a consistent-hash balancer ({@code LoadBalancing.CONSISTENT_HASH} of
   * triple-registry), to the instance that owns {@code key}: every consumer sends the same key to the same
   * instance while the instances stay the same. Null for none (the balancer then picks at random). Other
   * balancers ignore it.
   */
  public CallOptions withHashKey(String key) {
    Fields copy = copy();
    copy.hashKey = key;
    return new CallOptions(copy);
  }

  /**
   * A copy for proxies of plain Java interfaces whose calls take their {@link #withHashKey hash key} from
   * the arguments at {@code indexes}, as Dubbo's {@code hash.arguments} does: their {@code String.valueOf}
   * forms, joined, so that a Dubbo consumer and a Triple consumer send the same arguments to the same
   * instance. Indexes past a method's arguments are skipped; none turns it off.
   */
  public CallOptions withHashArguments(int... indexes) {
    for (int index : indexes) {
      if (index < 0) {
        throw new IllegalArgumentException("hash argument index " + index + " is negative");
      }
    }
    Fields copy = copy();
    copy.hashArguments = indexes.length == 0 ? null : indexes.clone();
    return new CallOptions(copy);
  }

  /**
   * A copy whose calls carry the routing tag {@code tag}, sent as the {@code dubbo.tag} header as Apache
   * Dubbo sends its {@code dubbo.tag} attachment: a consumer that discovers its servers (triple-registry)
   * sends them to the instances with that tag by the provider application's tag rule, else to untagged
   * ones (Dubbo's tag routing). Null or empty for none.
   */
  public CallOptions withTag(String tag) {
    Fields copy = copy();
    copy.tag = tag == null || tag.isEmpty() ? null : tag;
    return new CallOptions(copy);
  }

  /** The routing tag set by {@link #withTag}, or null. */
  public String tag() {
    return tag;
  }

  /** The key set by {@link #withHashKey}, or null. */
  public String hashKey() {
    return hashKey;
  }

  /**
   * The consistent-hash key of a proxy's call with {@code arguments}: from the arguments {@link
   * #withHashArguments} names, else {@link #hashKey()}.
   */
  public String hashKey(Object[] arguments) {
    int[] indexes = hashArguments;
    if (indexes == null || arguments == null) {
      return hashKey;
    }
    StringBuilder key = new StringBuilder();
    for (int index : indexes) {
      if (index < arguments.length) {
        key.append(arguments[index]);
      }
    }
    return key.toString();
  }

  /** Whether calls inherit the deadline and cancellation of the server call being handled; true unless turned off. */
  public boolean propagation() {
    return propagation;
  }

  /** What {@link #withPreferredSerializations} set, or null. */
  public String preferredSerializations() {
    return preferredSerializations;
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
        + (serviceGroup == null ? "" : ", serviceGroup=" + serviceGroup)
        + (preferredSerializations == null ? "" : ", preferredSerializations=" + preferredSerializations)
        + (propagation ? "" : ", withoutPropagation")
        + (hashKey == null ? "" : ", hashKey=" + hashKey)
        + (tag == null ? "" : ", tag=" + tag)
        + (hashArguments == null ? "" : ", hashArguments=" + java.util.Arrays.toString(hashArguments)) + '}';
  }
}
