package io.triplerpc.shaded.tests;

import io.triplerpc.shaded.io.netty.buffer.AbstractByteBuf;
import io.triplerpc.shaded.io.netty.buffer.ByteBuf;
import io.triplerpc.shaded.io.netty.util.ResourceLeakDetector;
import io.triplerpc.shaded.io.netty.util.ResourceLeakDetectorFactory;
import io.triplerpc.shaded.io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * triple-testing's LeakDetectionExtension for the Netty inside triple-netty-shaded, which has its own
 * leak detector (relocated, and set to paranoid by {@code -Dio.triplerpc.shaded.io.netty.leakDetection.level}):
 * fails a test class when it reports a leak. Found by JUnit's extension auto-detection, so it installs
 * its detector before any buffer class of the shaded Netty is initialized. Same method: after each
 * class, a dropped canary per detector, garbage collection, and polling until the canary is reported;
 * one detector here, the buffers'.
 */
public final class ShadedLeakDetection implements AfterAllCallback {

  private static final String CANARY = "triple-shaded-leak-canary#";
  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
  private static volatile RecordingDetector buffers;

  static {
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
      @Override
      @SuppressWarnings({"deprecation", "unchecked"})
      public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
        return newResourceLeakDetector(resource, samplingInterval);
      }

      @Override
      @SuppressWarnings("unchecked")
      public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
        RecordingDetector detector = new RecordingDetector(resource, samplingInterval);
        if (resource == ByteBuf.class) {
          buffers = detector;
        }
        return (ResourceLeakDetector<T>) detector;
      }
    });
  }

  @Override
  public void afterAll(ExtensionContext context) throws ClassNotFoundException {
    // Creates the buffers' detector if no test made a buffer.
    Class.forName(AbstractByteBuf.class.getName(), true, AbstractByteBuf.class.getClassLoader());
    RecordingDetector detector = buffers;
    if (detector == null) {
      throw new AssertionError("the shaded Netty's buffer leak detector was made before ShadedLeakDetection's");
    }
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    // Twice: the JVM enqueues one collection's references before the next one's.
    detector.awaitCanary(deadline);
    detector.awaitCanary(deadline);
    List<String> leaks = new ArrayList<>(LEAKS);
    LEAKS.clear();
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " leak(s) in the shaded Netty during or before "
          + context.getDisplayName() + ":\n" + String.join("\n----\n", leaks));
    }
  }

  /** Records each leak it reports, and recognizes its own canary. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static final class RecordingDetector extends ResourceLeakDetector {

    private static long canaries;
    /** The hint of the canary not yet reported, or null when none is out. */
    private volatile String canary;

    RecordingDetector(Class<?> resource, int samplingInterval) {
      super(resource, samplingInterval);
    }

    void awaitCanary(long deadline) {
      String hint = CANARY + ++canaries;
      canary = hint;
      // The tracker keeps only a weak reference and an identity hash: any object stands in for a buffer.
      trackForcibly(new Object()).record(hint);
      while (canary != null) {
        if (System.nanoTime() - deadline > 0) {
          throw new AssertionError("leak check gave up: no garbage collection of a dropped object");
        }
        System.gc();
        // Netty reports what was collected whenever it starts tracking an object.
        Object probe = new Object();
        ResourceLeakTracker tracker = trackForcibly(probe);
        tracker.close(probe);
      }
    }

    @Override
    protected boolean needReport() {
      return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
      if (records.contains(CANARY)) {
        if (canary != null && records.contains(canary)) {
          canary = null;
        }
        return;
      }
      LEAKS.add("LEAK: " + resourceType + ".release() was not called. Recent access records:" + records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
      LEAKS.add("LEAK: " + resourceType + ".release() was not called (no access records)");
    }
  }
}
