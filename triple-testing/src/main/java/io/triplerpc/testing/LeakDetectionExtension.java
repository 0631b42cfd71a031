package io.triplerpc.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reports a leaked buffer during or after it. Registered for every
 * module through JUnit's extension auto-detection (see the parent pom); run tests with
 * {@code -Dio.netty.leakDetection.level=PARANOID} so every buffer is tracked.
 *
 * <p>Netty reports a leak only when a leaked buffer has been garbage collected and a later
 * allocation polls the detector's queue, so after each class this forces both.
 */
public final class LeakDetectionExtension implements AfterAllCallback {

  private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();

  static {
    // Must run before Netty's buffer classes create their detectors; extensions load before tests.
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    List<String> leaks = collectLeaks();
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " Netty buffer leak(s) during or before "
          + context.getDisplayName() + ":\n" + String.join("\n----\n", leaks));
    }
  }

  /** Forces leak detection now and returns (and forgets) every leak reported so far. */
  public static List<String> collectLeaks() {
    for (int round = 0; round < 3; round++) {
      System.gc();
      // Each tracked allocation makes the detector poll its queue of collected, unreleased buffers.
      for (int i = 0; i < 8; i++) {
        release(PooledByteBufAllocator.DEFAULT.directBuffer(1));
        release(PooledByteBufAllocator.DEFAULT.heapBuffer(1));
        release(UnpooledByteBufAllocator.DEFAULT.buffer(1));
      }
    }
    List<String> leaks = new ArrayList<>();
    String leak;
    while ((leak = LEAKS.poll()) != null) {
      leaks.add(leak);
    }
    return leaks;
  }

  private static void release(ByteBuf buffer) {
    buffer.release();
  }

  /** Whether the recording detector is the one Netty's buffers use. */
  static boolean installed() {
    return ResourceLeakDetectorFactory.instance() instanceof RecordingFactory;
  }

  private static final class RecordingFactory extends ResourceLeakDetectorFactory {
    @Override
    @SuppressWarnings("deprecation")
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
      return new RecordingDetector<>(resource, samplingInterval);
    }

    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
      return new RecordingDetector<>(resource, samplingInterval);
    }
  }

  private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
    RecordingDetector(Class<T> resource, int samplingInterval) {
      super(resource, samplingInterval);
    }

    @Override
    protected boolean needReport() {
      return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
      LEAKS.add("LEAK: " + resourceType + " released too few times; recent access records:" + records);
      super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
      LEAKS.add("LEAK: " + resourceType + " released too few times (no records: run with PARANOID)");
      super.reportUntracedLeak(resourceType);
    }
  }
}
