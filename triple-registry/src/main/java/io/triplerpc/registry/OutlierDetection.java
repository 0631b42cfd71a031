package io.triplerpc.registry;

import io.triplerpc.Status;
import io.triplerpc.registry.internal.Durations;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Outlier ejection for a {@link Discovery}: instances that keep failing are taken out of rotation
 * for a while, with gRPC's {@code outlier_detection} semantics (proposal A50,
 * grpc-java's {@code OutlierDetectionLoadBalancer}) plus Envoy's consecutive-failure ejection.
 *
 * <p>Every call counts, per instance, as a success or a failure (by its status code, see
 * {@link Builder#failureCodes}); calls cancelled by the caller do not count. Every {@code interval}
 * the counts of the interval just ended are evaluated:
 *
 * <ul>
 *   <li>an instance with {@code consecutiveFailures} failures in a row (and no success since) is
 *       ejected;
 *   <li>with success-rate ejection on, among the instances with at least {@code requestVolume} calls
 *       in the interval, if there are at least {@code minimumHosts} of them, one whose success rate is
 *       below {@code mean - stdevFactor × stdev} is ejected with probability
 *       {@code enforcementPercentage}%;
 *   <li>with failure-percentage ejection on, among the instances with at least
 *       {@code failureRequestVolume} calls, if there are at least {@code failureMinimumHosts} of them,
 *       one whose percentage of failures is above {@code threshold} is ejected with probability
 *       {@code failureEnforcementPercentage}%;
 *   <li>no instance is ejected once {@code maxEjectionPercent}% of the instances are ejected (checked
 *       before each ejection, as A50 says, so with {@code maxEjectionPercent > 0} at least one can be);
 *   <li>an instance not ejected has its ejection multiplier decreased by one (down to zero); an ejected
 *       instance whose ejection time has passed returns: calls may reach it again, and its next failures
 *       eject it again, for longer if its multiplier has not decayed yet.
 * </ul>
 *
 * <p>An instance ejected for the n-th time in a row (its multiplier is n) stays out
 * {@code min(baseEjectionTime × n, max(baseEjectionTime, maxEjectionTime))}, until the first
 * evaluation after that. Ejected instances are skipped by every balancer; when every instance of a
 * service is ejected, its calls fail with UNAVAILABLE (as in grpc-java).
 *
 * <p>Counting costs a call two atomic increments on its instance; the evaluation runs on the client's
 * directory scheduler, once per interval, per application.
 *
 * <pre>{@code
 * Discovery.using(registry)
 *     .outlierDetection(OutlierDetection.builder().consecutiveFailures(5).successRate().build())
 *     .build();
 * }</pre>
 */
public final class OutlierDetection {

  /** The codes counted as failures unless {@link Builder#failureCodes} says otherwise. */
  public static final Set<Status.Code> DEFAULT_FAILURE_CODES = Set.copyOf(EnumSet.of(
      Status.Code.UNAVAILABLE, Status.Code.INTERNAL, Status.Code.UNKNOWN, Status.Code.DEADLINE_EXCEEDED));

  private final Duration interval;
  private final Duration baseEjectionTime;
  private final Duration maxEjectionTime;
  private final int maxEjectionPercent;
  private final int consecutiveFailures;
  private final boolean successRate;
  private final double stdevFactor;
  private final int enforcementPercentage;
  private final int minimumHosts;
  private final int requestVolume;
  private final boolean failurePercentage;
  private final int failureThreshold;
  private final int failureEnforcementPercentage;
  private final int failureMinimumHosts;
  private final int failureRequestVolume;
  private final Set<Status.Code> failureCodes;
  /** By code ordinal: whether the code counts as a failure. */
  private final boolean[] failing;

  private OutlierDetection(Builder b) {
    this.interval = b.interval;
    this.baseEjectionTime = b.baseEjectionTime;
    this.maxEjectionTime = b.maxEjectionTime;
    this.maxEjectionPercent = b.maxEjectionPercent;
    this.consecutiveFailures = b.consecutiveFailures;
    this.successRate = b.successRate;
    this.stdevFactor = b.stdevFactor;
    this.enforcementPercentage = b.enforcementPercentage;
    this.minimumHosts = b.minimumHosts;
    this.requestVolume = b.requestVolume;
    this.failurePercentage = b.failurePercentage;
    this.failureThreshold = b.failureThreshold;
    this.failureEnforcementPercentage = b.failureEnforcementPercentage;
    this.failureMinimumHosts = b.failureMinimumHosts;
    this.failureRequestVolume = b.failureRequestVolume;
    this.failureCodes = Set.copyOf(b.failureCodes);
    this.failing = new boolean[Status.Code.values().length];
    for (Status.Code code : failureCodes) {
      failing[code.ordinal()] = true;
    }
  }

  /**
   * A builder with A50's defaults: consecutive-failure ejection on, success-rate and failure-percentage
   * ejection off.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** How often instances are evaluated; 10 s by default. */
  public Duration interval() {
    return interval;
  }

  /** How long a first ejection lasts; 30 s by default. */
  public Duration baseEjectionTime() {
    return baseEjectionTime;
  }

  /** The longest an ejection lasts (unless {@link #baseEjectionTime} is longer); 300 s by default. */
  public Duration maxEjectionTime() {
    return maxEjectionTime;
  }

  /** Past this percentage of instances ejected, no more are; 10 by default. */
  public int maxEjectionPercent() {
    return maxEjectionPercent;
  }

  /** Failures in a row that eject an instance; 5 by default, 0 when off. */
  public int consecutiveFailures() {
    return consecutiveFailures;
  }

  /** Whether success-rate ejection is on; off by default. */
  public boolean successRateEjection() {
    return successRate;
  }

  /** How many standard deviations below the mean success rate an outlier is; 1.9 by default. */
  public double stdevFactor() {
    return stdevFactor;
  }

  /** The chance, in percent, that a success-rate outlier is ejected; 100 by default. */
  public int enforcementPercentage() {
    return enforcementPercentage;
  }

  /** The fewest instances with enough calls for success-rate ejection; 5 by default. */
  public int minimumHosts() {
    return minimumHosts;
  }

  /** The fewest calls in an interval for an instance to count in success-rate ejection; 100 by default. */
  public int requestVolume() {
    return requestVolume;
  }

  /** Whether failure-percentage ejection is on; off by default. */
  public boolean failurePercentageEjection() {
    return failurePercentage;
  }

  /** The percentage of failures above which an instance is an outlier; 85 by default. */
  public int failureThreshold() {
    return failureThreshold;
  }

  /** The chance, in percent, that a failure-percentage outlier is ejected; 100 by default. */
  public int failureEnforcementPercentage() {
    return failureEnforcementPercentage;
  }

  /** The fewest instances with enough calls for failure-percentage ejection; 5 by default. */
  public int failureMinimumHosts() {
    return failureMinimumHosts;
  }

  /** The fewest calls in an interval for an instance to count in failure-percentage ejection; 50 by default. */
  public int failureRequestVolume() {
    return failureRequestVolume;
  }

  /** The status codes counted as failures. */
  public Set<Status.Code> failureCodes() {
    return failureCodes;
  }

  /** Whether a call that ended with {@code code} counts as a failure. */
  public boolean isFailure(Status.Code code) {
    return failing[code.ordinal()];
  }

  @Override
  public String toString() {
    return "OutlierDetection{interval=" + interval + ", baseEjectionTime=" + baseEjectionTime
        + ", maxEjectionTime=" + maxEjectionTime + ", maxEjectionPercent=" + maxEjectionPercent
        + ", consecutiveFailures=" + consecutiveFailures
        + (successRate ? ", successRate{stdevFactor=" + stdevFactor + ", enforcementPercentage="
            + enforcementPercentage + ", minimumHosts=" + minimumHosts + ", requestVolume=" + requestVolume + '}'
            : ", successRate=off")
        + (failurePercentage ? ", failurePercentage{threshold=" + failureThreshold + ", enforcementPercentage="
            + failureEnforcementPercentage + ", minimumHosts=" + failureMinimumHosts + ", requestVolume="
            + failureRequestVolume + '}' : ", failurePercentage=off")
        + ", failureCodes=" + failureCodes + '}';
  }

  /** Builds an {@link OutlierDetection}; every setter checks its value. Not thread-safe. */
  public static final class Builder {

    private Duration interval = Duration.ofSeconds(10);
    private Duration baseEjectionTime = Duration.ofSeconds(30);
    private Duration maxEjectionTime = Duration.ofSeconds(300);
    private int maxEjectionPercent = 10;
    private int consecutiveFailures = 5;
    private boolean successRate;
    private double stdevFactor = 1.9;
    private int enforcementPercentage = 100;
    private int minimumHosts = 5;
    private int requestVolume = 100;
    private boolean failurePercentage;
    private int failureThreshold = 85;
    private int failureEnforcementPercentage = 100;
    private int failureMinimumHosts = 5;
    private int failureRequestVolume = 50;
    private Set<Status.Code> failureCodes = DEFAULT_FAILURE_CODES;

    private Builder() {}

    /** How often instances are evaluated (grpc-java's {@code interval}); 10 s by default. */
    public Builder interval(Duration interval) {
      this.interval = Durations.positive(interval, "outlier detection interval");
      return this;
    }

    /** How long a first ejection lasts (grpc-java's {@code baseEjectionTime}); 30 s by default. */
    public Builder baseEjectionTime(Duration time) {
      this.baseEjectionTime = Durations.positive(time, "outlier detection baseEjectionTime");
      return this;
    }

    /**
     * The longest an ejection lasts, unless the base ejection time is longer (grpc-java's
     * {@code maxEjectionTime}); 300 s by default.
     */
    public Builder maxEjectionTime(Duration time) {
      this.maxEjectionTime = Durations.positive(time, "outlier detection maxEjectionTime");
      return this;
    }

    /** Past this percentage of instances ejected, no more are (0 to 100); 10 by default. */
    public Builder maxEjectionPercent(int percent) {
      this.maxEjectionPercent = percent(percent, "maxEjectionPercent");
      return this;
    }

    /**
     * Failures in a row that eject an instance (Envoy's {@code consecutive_5xx}; grpc-java has no
     * equivalent); 5 by default, 0 to turn it off.
     */
    public Builder consecutiveFailures(int failures) {
      if (failures < 0) {
        throw new IllegalArgumentException(
            "outlier detection consecutiveFailures must not be negative (0 turns it off): " + failures);
      }
      this.consecutiveFailures = failures;
      return this;
    }

    /**
     * Turns success-rate ejection on (grpc-java's {@code successRateEjection}), with
     * {@code stdevFactor} standard deviations (grpc-java's {@code stdevFactor} is in thousandths:
     * 1900 there is 1.9 here), the chance {@code enforcementPercentage} that an outlier is ejected,
     * and at least {@code minimumHosts} instances with {@code requestVolume} calls in an interval.
     */
    public Builder successRate(double stdevFactor, int enforcementPercentage, int minimumHosts, int requestVolume) {
      if (!(stdevFactor >= 0) || Double.isInfinite(stdevFactor)) {
        throw new IllegalArgumentException(
            "outlier detection stdevFactor must be a finite number not below zero: " + stdevFactor);
      }
      int enforcement = percent(enforcementPercentage, "enforcementPercentage");
      atLeastOne(minimumHosts, "minimumHosts");
      atLeastOne(requestVolume, "requestVolume");
      this.successRate = true;
      this.stdevFactor = stdevFactor;
      this.enforcementPercentage = enforcement;
      this.minimumHosts = minimumHosts;
      this.requestVolume = requestVolume;
      return this;
    }

    /** Turns success-rate ejection on with A50's defaults: 1.9 standard deviations, 100%, 5 hosts, 100 calls. */
    public Builder successRate() {
      return successRate(1.9, 100, 5, 100);
    }

    /** Turns success-rate ejection off again. */
    public Builder noSuccessRate() {
      this.successRate = false;
      return this;
    }

    /**
     * Turns failure-percentage ejection on (grpc-java's {@code failurePercentageEjection}): an
     * instance with more than {@code threshold}% failures among at least {@code requestVolume} calls in
     * an interval is ejected with probability {@code enforcementPercentage}%, when at least
     * {@code minimumHosts} instances had that many calls.
     */
    public Builder failurePercentage(int threshold, int enforcementPercentage, int minimumHosts, int requestVolume) {
      int checkedThreshold = percent(threshold, "failure percentage threshold");
      int enforcement = percent(enforcementPercentage, "failure percentage enforcementPercentage");
      atLeastOne(minimumHosts, "failure percentage minimumHosts");
      atLeastOne(requestVolume, "failure percentage requestVolume");
      this.failurePercentage = true;
      this.failureThreshold = checkedThreshold;
      this.failureEnforcementPercentage = enforcement;
      this.failureMinimumHosts = minimumHosts;
      this.failureRequestVolume = requestVolume;
      return this;
    }

    /** Turns failure-percentage ejection on with A50's defaults: above 85 %, 100 %, 5 hosts, 50 calls. */
    public Builder failurePercentage() {
      return failurePercentage(85, 100, 5, 50);
    }

    /** Turns failure-percentage ejection off again. */
    public Builder noFailurePercentage() {
      this.failurePercentage = false;
      return this;
    }

    /**
     * The status codes counted as failures; the others count as successes, except CANCELLED, which
     * does not count (the caller gave up). {@link #DEFAULT_FAILURE_CODES} by default.
     */
    public Builder failureCodes(Set<Status.Code> codes) {
      Objects.requireNonNull(codes, "codes");
      if (codes.contains(Status.Code.OK) || codes.contains(Status.Code.CANCELLED)) {
        throw new IllegalArgumentException(
            "outlier detection failureCodes must not contain OK or CANCELLED: " + codes);
      }
      this.failureCodes = Set.copyOf(codes);
      return this;
    }

    private static void atLeastOne(int value, String name) {
      if (value < 1) {
        throw new IllegalArgumentException("outlier detection " + name + " must be at least 1: " + value);
      }
    }

    private static int percent(int value, String name) {
      if (value < 0 || value > 100) {
        throw new IllegalArgumentException("outlier detection " + name + " must be between 0 and 100: " + value);
      }
      return value;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException if no kind of ejection is on
     */
    public OutlierDetection build() {
      if (consecutiveFailures == 0 && !successRate && !failurePercentage) {
        throw new IllegalArgumentException("outlier detection with consecutiveFailures 0, no successRate and no"
            + " failurePercentage would never eject anything");
      }
      return new OutlierDetection(this);
    }
  }
}
