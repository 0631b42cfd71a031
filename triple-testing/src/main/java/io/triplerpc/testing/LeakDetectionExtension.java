package io.triplerpc.testing;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reports a leak (a buffer released too few times) during or before it.
 * Found by JUnit's extension auto-detection (see the parent pom), so every module with triple-testing
 * on its test class path gets it; run tests with {@code -Dio.netty.leakDetection.level=PARANOID} so
 * every buffer is tracked and each report says where the buffer was made and last touched.
 *
 * <p>Netty reports a leak only after the garbage collector has found the leaked object and the
 * detector next polls its reference queue, so after each class this forces both: it drops a tracked
 * canary in every detector, then collects garbage and polls until the canary comes back as a leak.
 * It does that twice, because the JVM enqueues one collection's references before the next one's:
 * once the second canary is back, every leak the first collection found has been reported.
 */
public final class LeakDetectionExtension implements AfterAllCallback {

  /** How long {@link #collectLeaks} waits for the garbage collector before giving up. */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** Marks a canary's access record; never appears in a real leak report. */
  private static final String CANARY = "triple-leak-canary#";

  /** Leak reports not yet returned by {@link #collectLeaks}, from every detector and thread. */
  private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();

  private static final RecordingFactory FACTORY = new RecordingFactory();

  static {
    // AbstractByteBuf creates the detector of every buffer once, in its static initializer. JUnit
    // instantiates auto-detected extensions before it initializes any test class, so this runs first;
    // checkInstalled() proves it did.
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(FACTORY);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    failOnLeaks(context.getDisplayName());
  }

  /** Throws an {@link AssertionError} listing every leak reported so far, if there is any. */
  static void failOnLeaks(String testClass) {
    List<String> leaks = collectLeaks();
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " Netty leak(s) reported during or before " + testClass
          + ":\n" + String.join("\n----\n", leaks));
    }
  }

  /**
   * Forces leak detection now and returns (and forgets) every leak reported so far.
   *
   * @throws AssertionError if Netty's buffers do not use the recording detector, or the garbage
   *     collector did not run within the timeout (as with {@code -XX:+DisableExplicitGC})
   */
  public static List<String> collectLeaks() {
    checkInstalled();
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    awaitCanaries(deadline);
    awaitCanaries(deadline);
    List<String> leaks = new ArrayList<>();
    String leak;
    while ((leak = LEAKS.poll()) != null) {
      leaks.add(leak);
    }
    return leaks;
  }

  /** Whether the detector of Netty's buffers is the recording one. */
  static boolean installed() {
    try {
      // Initializes AbstractByteBuf if nothing has yet, so its detector exists.
      Class.forName(AbstractByteBuf.class.getName(), true, AbstractByteBuf.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
    return FACTORY.created(ByteBuf.class);
  }

  private static void checkInstalled() {
    if (!installed()) {
      throw new AssertionError("Netty's buffer leak detector was created before LeakDetectionExtension "
          + "installed its own, so leaks cannot be detected: something initialized io.netty.buffer classes "
          + "before JUnit loaded extensions (is junit.jupiter.extensions.autodetection.enabled=true?)");
    }
  }

  private static void awaitCanaries(long deadline) {
    List<RecordingDetector<?>> detectors = FACTORY.detectors;
    for (RecordingDetector<?> detector : detectors) {
      detector.dropCanary();
    }
    while (detectors.stream().anyMatch(RecordingDetector::awaitsCanary)) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("Leak check gave up: the garbage collector did not collect a dropped object in "
            + TIMEOUT.toSeconds() + " s (is -XX:+DisableExplicitGC set?)");
      }
      System.gc();
      for (RecordingDetector<?> detector : detectors) {
        detector.poll();
      }
    }
  }

  /** Creates recording detectors and remembers them, so each can be polled. */
  private static final class RecordingFactory extends ResourceLeakDetectorFactory {

    /** Every detector Netty created since this factory was installed. */
    final List<RecordingDetector<?>> detectors = new CopyOnWriteArrayList<>();

    boolean created(Class<?> resource) {
      return detectors.stream().anyMatch(d -> d.resource == resource);
    }

    @Override
    @SuppressWarnings("deprecation")
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
      return newResourceLeakDetector(resource, samplingInterval);
    }

    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
      RecordingDetector<T> detector = new RecordingDetector<>(resource, samplingInterval);
      detectors.add(detector);
      return detector;
    }
  }

  /** A detector that records each leak it reports, and recognizes its own canaries. */
  private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {

    private static final AtomicLong CANARIES = new AtomicLong();

    final Class<T> resource;
    /** The hint of the canary not yet reported, or null when none is out. */
    private volatile String canary;

    RecordingDetector(Class<T> resource, int samplingInterval) {
      super(resource, samplingInterval);
      this.resource = resource;
    }

    /** Tracks an object that nothing references, so it is reported once it is collected. */
    @SuppressWarnings("unchecked")
    void dropCanary() {
      String hint = CANARY + CANARIES.incrementAndGet() + "#";
      canary = hint;
      // The tracker only keeps a weak reference and an identity hash, so any object stands in for T.
      trackForcibly((T) new Object()).record(hint);
    }

    boolean awaitsCanary() {
      return canary != null;
    }

    /** Reports every collected, unreleased object: Netty does so whenever it starts tracking one. */
    @SuppressWarnings("unchecked")
    void poll() {
      T probe = (T) new Object();
      ResourceLeakTracker<T> tracker = trackForcibly(probe);
      tracker.close(probe);
    }

    @Override
    protected boolean needReport() {
      // Netty skips reports when its logger has errors off; here every report fails the tests.
      return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
      if (records.contains(CANARY)) {
        String expected = canary;
        if (expected != null && records.contains(expected)) {
          canary = null;
        }
        return;
      }
      LEAKS.add("LEAK: " + resourceType + ".release() was not called before it was garbage-collected. "
          + "Recent access records:" + records);
      super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
      LEAKS.add("LEAK: " + resourceType + ".release() was not called before it was garbage-collected "
          + "(no access records: run with -Dio.netty.leakDetection.level=PARANOID to see where)");
      super.reportUntracedLeak(resourceType);
    }
  }
}
