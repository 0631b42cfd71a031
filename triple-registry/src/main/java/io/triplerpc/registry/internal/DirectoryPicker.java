package io.triplerpc.registry.internal;

import io.triplerpc.CallOptions;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.ServiceExports;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.spi.Connection;
import io.triplerpc.spi.Connector;
import io.triplerpc.spi.Picker;
import java.util.List;

/**
 * The picker of the calls to one export of a service: each attempt on an instance of its
 * {@link ServiceDirectory} (another than those tried, while one is in rotation), with the balancers'
 * and outlier detection's accounting of how it went.
 */
final class DirectoryPicker implements Picker {

  private static final Endpoint[] NONE_TRIED = new Endpoint[0];

  private final ServiceDirectory directory;
  private final Connector connector;
  private final DirectorySettings settings;
  /** Why condition routing left this call no instance, naming the rule; null if it did not. */
  private volatile String conditionFailure;

  DirectoryPicker(ServiceDirectory directory, Connector connector, DirectorySettings settings) {
    this.directory = directory;
    this.connector = connector;
    this.settings = settings;
  }

  @Override
  public boolean isReady() {
    TagRouter tags = directory.tagRouter;
    ConditionStage conditions = directory.conditions;
    return directory.isReady() && (tags == null || tags.rulesKnown())
        && (conditions == null || conditions.rulesKnown());
  }

  @Override
  public void whenReady(Runnable task) {
    TagRouter tags = directory.tagRouter;
    ConditionStage conditions = directory.conditions;
    Runnable afterConditions = conditions == null ? task : () -> conditions.whenRulesKnown(task);
    directory.whenReady(tags == null ? afterConditions : () -> tags.whenRulesKnown(afterConditions));
  }

  @Override
  public long readyWaitNanos() {
    return settings.initialWaitNanos();
  }

  @Override
  public int failoverRetries() {
    Overrides o = directory.overrides();   // The dynamic configuration's retries replace the consumer's.
    return o != null && o.retries >= 0 ? o.retries : settings.retries();
  }

  @Override
  public Pick pick(MethodDescriptor<?, ?> method, List<Pick> tried) {
    return pick(method, tried, null, null, null);
  }

  @Override
  public Pick pick(MethodDescriptor<?, ?> method, CallOptions options, Metadata headers, List<Pick> tried) {
    String key = null;
    if (settings.balancing() == LoadBalancing.CONSISTENT_HASH) {
      key = options.hashKey();
      if (key == null && settings.hashHeader() != null && headers != null) {
        key = headers.get(settings.hashHeader());
      }
    }
    String tag = null;
    if (directory.tagRouter != null) {   // Without rules, a call pays nothing for tags.
      tag = options.tag();
      if (tag == null && headers != null) {
        tag = headers.get(ServiceExports.TAG_HEADER);
      }
    }
    return pick(method, tried, key, tag, headers);
  }

  private Pick pick(MethodDescriptor<?, ?> method, List<Pick> tried, String hashKey, String tag, Metadata headers) {
    Endpoint[] endpoints = NONE_TRIED;
    if (!tried.isEmpty()) {
      endpoints = new Endpoint[tried.size()];
      for (int i = 0; i < endpoints.length; i++) {
        endpoints[i] = ((EndpointPick) tried.get(i)).endpoint;
      }
    }
    Endpoint endpoint;
    ConditionStage conditions = directory.conditions;
    if (conditions == null) {
      endpoint = directory.pick(endpoints, endpoints.length, hashKey, tag);
    } else {
      ConditionStage.Outcome routed = conditions.route(directory.routed(tag), method.methodName(), headers);
      conditionFailure = routed.failure();
      endpoint = routed.endpoints() == null ? directory.pick(endpoints, endpoints.length, hashKey, tag)
          : directory.pickAmong(routed.endpoints(), endpoints, endpoints.length);
    }
    if (endpoint == null) {
      return null;
    }
    // Only a unary call's duration is its latency: a stream lasts as long as the conversation.
    PeakEwma peakEwma = method.type() == MethodType.UNARY ? directory.peakEwma : null;
    Connection connection = endpoint.connection(connector);
    endpoint.callStarted();
    Overrides o = directory.configurators == null ? null : directory.overrides();
    return new EndpointPick(endpoint, connection, peakEwma, o == null ? 0 : o.timeoutNanos(endpoint));
  }

  @Override
  public boolean wasTried(Pick pick, List<Pick> tried) {
    Endpoint endpoint = ((EndpointPick) pick).endpoint;
    for (Pick earlier : tried) {
      if (((EndpointPick) earlier).endpoint == endpoint) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String noServerReason() {
    String reason = directory.unavailableReason();
    if (reason != null) {
      return reason;
    }
    if (conditionFailure != null) {
      return conditionFailure;
    }
    int instances = directory.size();
    if (instances > 0 && directory.tagRouter != null && directory.anyInRotation()) {
      return "No instance of " + directory.describe() + " that the call's tag may reach is in rotation: the "
          + "provider application's tag rule gives the tag to none of the " + instances + " registered (and "
          + "says force: true), or tags them all and the call has no tag";
    }
    if (instances > 0) {
      return "No instance of " + directory.describe() + " is in rotation: all " + instances
          + " are ejected as outliers (or removed)"
          + (directory.configurators != null ? ", or disabled by the dynamic configuration" : "");
    }
    return directory.isReady()
        ? "No instance of " + directory.describe() + " is registered"
        : "No instance of " + directory.describe() + " is known yet (the registry has not answered)";
  }

  @Override
  public String describe() {
    return directory.describe();
  }

  /** One attempt on one instance: its call counts as active there until the attempt ends. */
  private final class EndpointPick implements Pick {
    final Endpoint endpoint;
    private final Connection connection;
    /** The latency estimates the attempt's duration goes to, or null if it is not timed. */
    private final PeakEwma peakEwma;
    /** When the attempt started, on the peak-EWMA clock, if timed. */
    private final long startedAtNanos;
    /** The dynamic configuration's deadline of a call here that brings none; 0 for none. */
    private final long overriddenTimeoutNanos;
    private boolean ended;

    EndpointPick(Endpoint endpoint, Connection connection, PeakEwma peakEwma, long overriddenTimeoutNanos) {
      this.endpoint = endpoint;
      this.connection = connection;
      this.peakEwma = peakEwma;
      this.overriddenTimeoutNanos = overriddenTimeoutNanos;
      this.startedAtNanos = peakEwma != null ? peakEwma.now() : 0;
    }

    @Override
    public Connection connection() {
      return connection;
    }

    @Override
    public CallOptions options(CallOptions options) {
      // A deadline the caller set wins, as a per-call timeout wins over Dubbo's configurators.
      if (overriddenTimeoutNanos > 0 && options.timeoutNanos() == 0) {
        options = options.withTimeout(overriddenTimeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
      }
      return directory.toExportOf(endpoint, options);
    }

    @Override
    public boolean sameServer(Pick other) {
      return other instanceof EndpointPick && ((EndpointPick) other).endpoint == endpoint;
    }

    @Override
    public void attemptEnded(Status status) {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
      }
      endpoint.callEnded();
      if (status == null) {
        return; // Never started.
      }
      if (peakEwma != null) {
        peakEwma.observe(endpoint, startedAtNanos, status.isOk());
      }
      endpoint.recordOutcome(status.code());
      if (status.code() == Status.Code.UNAVAILABLE) {
        endpoint.markFailed();
      } else {
        endpoint.markHealthy();
      }
    }
  }
}
