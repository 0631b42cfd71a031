package io.triplerpc.spring.boot.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Serves {@link Greeter}; {@link #slow} waits for the test. */
public class GreeterImpl implements Greeter {

  /** Counted down when a slow call has arrived. */
  public final CountDownLatch slowArrived = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @Override
  public String greet(String name) {
    return "Hello, " + name;
  }

  @Override
  public String slow(String name) {
    slowArrived.countDown();
    try {
      if (!release.await(30, TimeUnit.SECONDS)) {
        return "never released";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
    return "Finally, " + name;
  }

  /** Lets slow calls answer. */
  public void release() {
    release.countDown();
  }
}
