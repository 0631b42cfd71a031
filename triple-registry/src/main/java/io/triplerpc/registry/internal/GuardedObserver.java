package io.triplerpc.registry.internal;

import io.triplerpc.registry.DiscoveryObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's {@link DiscoveryObserver} that cannot break discovery: what it throws is logged (the first
 * failure as a warning with its stack, later ones at debug, since a broken observer fails on every
 * push) and goes no further.
 */
final class GuardedObserver implements DiscoveryObserver {

  private static final Logger log = LoggerFactory.getLogger(GuardedObserver.class);

  private final DiscoveryObserver observer;
  /** Set by the first failure; later ones are logged quietly. */
  private volatile boolean failed;

  private GuardedObserver(DiscoveryObserver observer) {
    this.observer = observer;
  }

  /** {@code observer} guarded, once; null stays null (no observer). */
  static DiscoveryObserver of(DiscoveryObserver observer) {
    return observer == null || observer instanceof GuardedObserver ? observer : new GuardedObserver(observer);
  }

  @Override
  public void instancesChanged(String service, String version, String group, int instances) {
    try {
      observer.instancesChanged(service, version, group, instances);
    } catch (RuntimeException e) {
      failed("instancesChanged", e);
    }
  }

  @Override
  public void pushApplied(String application, long lagNanos) {
    try {
      observer.pushApplied(application, lagNanos);
    } catch (RuntimeException e) {
      failed("pushApplied", e);
    }
  }

  private void failed(String method, RuntimeException e) {
    if (!failed) {
      failed = true;
      log.warn("Discovery observer {} failed in {}; ignored (later failures are logged at debug)", observer, method, e);
    } else {
      log.debug("Discovery observer {} failed in {}; ignored", observer, method, e);
    }
  }
}
