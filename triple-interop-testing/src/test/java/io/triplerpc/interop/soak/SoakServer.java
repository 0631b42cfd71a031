package io.triplerpc.interop.soak;

import com.sun.management.UnixOperatingSystemMXBean;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.InteropServer;
import io.triplerpc.testing.LeakDetectionExtension;
import io.triplerpc.transport.netty.internal.server.ServerAllocator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The soak run's server, in a JVM of its own: the interop server ({@code grpc.testing.TestService}) on a
 * free loopback port, and one sample of its resources for each {@code sample} line on standard input.
 * It answers on standard output:
 *
 * <pre>
 * soak-server port=N allocator=CLASS
 * soak-sample heap_after_gc=BYTES alloc_direct=BYTES alloc_heap=BYTES netty_direct=BYTES jvm_direct=BYTES threads=N fds=N leaks=N
 * </pre>
 *
 * <p>Heap after GC: the heap's used bytes ({@code MemoryMXBean}) right after the collections that
 * {@link LeakDetectionExtension#collectLeaks()} forces ({@code System.gc()}, a full collection with
 * G1, repeated until Netty's leak detectors have seen two canaries collected), so every sample also
 * counts the leak reports of everything collected so far ({@code leaks}, cumulative; they are logged
 * as {@code LEAK:} too). {@code alloc_*} are the metrics of the allocator Triple's server uses
 * ({@code ServerAllocator.get()}: Netty's pooled allocator unless {@code io.triplerpc.server.allocator}
 * or {@code io.netty.allocator.type} says otherwise); {@code netty_direct} is Netty's own count of direct memory it allocated without a
 * cleaner; {@code jvm_direct} the JVM's direct buffer pool. End of input stops the server.
 */
public final class SoakServer {

  private SoakServer() {}

  public static void main(String[] args) throws IOException {
    // Installs the counting leak detectors before any Netty buffer class is loaded.
    LeakDetectionExtension.collectLeaks();
    TripleServer server = InteropServer.start("127.0.0.1", 0);
    ByteBufAllocator allocator = ServerAllocator.get();
    System.out.println("soak-server port=" + server.port() + " allocator=" + allocator.getClass().getName());
    System.out.flush();
    long leaks = 0;
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.trim().equals("sample")) {
        List<String> reports = LeakDetectionExtension.collectLeaks();
        leaks += reports.size();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        ByteBufAllocatorMetric metric = allocator instanceof ByteBufAllocatorMetricProvider provider ? provider.metric() : null;
        System.out.println("soak-sample heap_after_gc=" + heap
            + " alloc_direct=" + (metric == null ? -1 : metric.usedDirectMemory())
            + " alloc_heap=" + (metric == null ? -1 : metric.usedHeapMemory())
            + " netty_direct=" + PlatformDependent.usedDirectMemory()
            + " jvm_direct=" + jvmDirect()
            + " threads=" + ManagementFactory.getThreadMXBean().getThreadCount()
            + " fds=" + openFiles()
            + " leaks=" + leaks);
        System.out.flush();
      }
    }
    server.shutdownNow();
  }

  private static long jvmDirect() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        return pool.getMemoryUsed();
      }
    }
    return -1;
  }

  private static long openFiles() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : -1;
  }
}
