package io.triplerpc.registry.internal;

import io.triplerpc.registry.OutlierDetection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Ejects and brings back the instances of one population (an application's instances), run once
 * per interval on one thread, as gRPC proposal A50's timer: counts of the interval taken, ejections,
 * then multipliers decayed and instances whose ejection time has passed brought back.
 */
final class OutlierDetector {

  private final OutlierDetection config;
  private final LongSupplier clock;
  private final long baseNanos;
  private final long maxNanos;

  OutlierDetector(OutlierDetection config, LongSupplier clock) {
    this.config = config;
    this.clock = clock;
    this.baseNanos = config.baseEjectionTime().toNanos();
    this.maxNanos = Math.max(baseNanos, config.maxEjectionTime().toNanos());
  }

  /** Evaluates the instances {@code directory} holds now. */
  void evaluate(ApplicationDirectory directory) {
    List<Endpoint> endpoints = new ArrayList<>();
    directory.forEachEndpoint(e -> {
      if (e.outlier() != null) {
        endpoints.add(e);
      }
    });
    evaluate(endpoints, clock.getAsLong());
  }

  void evaluate(List<Endpoint> endpoints, long now) {
    int n = endpoints.size();
    if (n == 0) {
      return;
    }
    OutlierStats[] stats = new OutlierStats[n];
    long[] calls = new long[n];
    int ejected = 0;
    for (int i = 0; i < n; i++) {
      stats[i] = endpoints.get(i).outlier();
      calls[i] = stats[i].takeCalls();
      if (stats[i].isEjected()) {
        ejected++;
      }
    }
    if (config.consecutiveFailures() > 0) {
      for (int i = 0; i < n; i++) {
        OutlierStats s = stats[i];
        if (!s.isEjected() && s.consecutiveFailures() >= config.consecutiveFailures()) {
          if (atMaxEjection(ejected, n)) {
            break;
          }
          s.eject(now);
          ejected++;
        }
      }
    }
    if (config.successRateEjection()) {
      ejected = successRate(stats, calls, ejected, now);
    }
    if (config.failurePercentageEjection()) {
      ejected = failurePercentage(stats, calls, ejected, now);
    }
    for (OutlierStats s : stats) {
      if (!s.isEjected()) {
        if (s.multiplier > 0) {
          s.multiplier--;
        }
      } else if (now - s.ejectedAtNanos >= ejectionNanos(s.multiplier)) {
        s.uneject();
      }
    }
  }

  /** A50: {@code min(base × multiplier, max(base, max))}, without overflowing for a large multiplier. */
  private long ejectionNanos(int multiplier) {
    return multiplier > maxNanos / baseNanos ? maxNanos : Math.min(baseNanos * multiplier, maxNanos);
  }

  /** A50: no ejection once the percentage of ejected instances is at or above the maximum. */
  private boolean atMaxEjection(int ejected, int total) {
    return (long) ejected * 100 >= (long) config.maxEjectionPercent() * total;
  }

  /** A50's failure-percentage algorithm; returns the number of instances ejected after it. */
  private int failurePercentage(OutlierStats[] stats, long[] calls, int ejected, long now) {
    int n = stats.length;
    int candidates = 0;
    for (long c : calls) {
      if (volume(c) >= config.failureRequestVolume()) {
        candidates++;
      }
    }
    if (candidates < config.failureMinimumHosts()) {
      return ejected;
    }
    for (int i = 0; i < n; i++) {
      long volume = volume(calls[i]);
      if (volume < config.failureRequestVolume() || stats[i].isEjected()) {
        continue;
      }
      if (atMaxEjection(ejected, n)) {
        break;
      }
      long failures = calls[i] & 0xFFFF_FFFFL;
      if (failures * 100 > (long) config.failureThreshold() * volume
          && ThreadLocalRandom.current().nextInt(100) < config.failureEnforcementPercentage()) {
        stats[i].eject(now);
        ejected++;
      }
    }
    return ejected;
  }

  private static long volume(long calls) {
    return (calls >>> 32) + (calls & 0xFFFF_FFFFL);
  }

  /** A50's success-rate algorithm; returns the number of instances ejected after it. */
  private int successRate(OutlierStats[] stats, long[] calls, int ejected, long now) {
    int n = stats.length;
    double[] rates = new double[n];
    int candidates = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      long successes = calls[i] >>> 32;
      long volume = successes + (calls[i] & 0xFFFF_FFFFL);
      if (volume >= config.requestVolume()) {
        rates[i] = (double) successes / volume;
        sum += rates[i];
        candidates++;
      } else {
        rates[i] = Double.NaN;
      }
    }
    if (candidates < config.minimumHosts()) {
      return ejected;
    }
    double mean = sum / candidates;
    double squares = 0;
    for (double rate : rates) {
      if (!Double.isNaN(rate)) {
        squares += (rate - mean) * (rate - mean);
      }
    }
    double required = mean - config.stdevFactor() * Math.sqrt(squares / candidates);
    for (int i = 0; i < n; i++) {
      if (Double.isNaN(rates[i]) || stats[i].isEjected()) {
        continue;
      }
      if (atMaxEjection(ejected, n)) {
        break;
      }
      if (rates[i] < required
          && ThreadLocalRandom.current().nextInt(100) < config.enforcementPercentage()) {
        stats[i].eject(now);
        ejected++;
      }
    }
    return ejected;
  }
}
