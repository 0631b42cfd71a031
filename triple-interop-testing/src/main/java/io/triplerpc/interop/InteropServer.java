package io.triplerpc.interop;

import io.grpc.testing.integration.TestService;
import io.triplerpc.TlsConfig;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.internal.server.ServerAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Serves {@code grpc.testing.TestService} until killed: {@code --port=N} (required),
 * {@code --host=ADDRESS} (default 127.0.0.1), {@code --use_tls=true|false} (default false),
 * {@code --use_http3=true|false} (default false; needs {@code --use_tls=true}: HTTP/3 on UDP port N too,
 * with the same certificate, so any HTTP/3 client can be pointed at it). With TLS
 * it presents gRPC's own test certificate ({@code server1.pem} from grpc-testing, signed by its test
 * CA, for {@code *.test.google.fr}), as gRPC's interop servers do, and still serves cleartext on the
 * same port (it opts in with {@code plaintextAlongsideTls}: a test server, not a model to copy). Every server also answers reflection, health, curl (JSON and proto) and HTTP/1.1.
 * {@code --log_memory=true} prints, once a second, what the server's buffer allocator holds (its own
 * metric) and the Java heap: {@code memory allocator=CLASS alloc_direct=BYTES alloc_heap=BYTES
 * heap_used=BYTES heap_committed=BYTES} ({@code scripts/slow-readers.sh} reads it).
 */
public final class InteropServer {

  private InteropServer() {}

  /** A started interop server on {@code host:port} (0 for a free port). */
  public static TripleServer start(String host, int port) {
    return start(host, port, false);
  }

  /** A started interop server, with gRPC's test certificate when {@code tls}. */
  public static TripleServer start(String host, int port, boolean tls) {
    return start(host, port, tls, false);
  }

  /**
   * A started interop server, with gRPC's test certificate when {@code tls}, and HTTP/3 on the UDP port of
   * the same number when {@code http3}.
   *
   * @throws IllegalArgumentException for {@code http3} without {@code tls}
   */
  public static TripleServer start(String host, int port, boolean tls, boolean http3) {
    if (http3 && !tls) {
      throw new IllegalArgumentException("--use_http3=true needs --use_tls=true: QUIC is always TLS 1.3");
    }
    TripleServer.Builder builder = TripleServer.builder()
        .host(host)
        .port(port)
        .addService(TestService.class, new TestServiceImpl())
        .intercept(new EchoMetadataInterceptor());
    if (tls) {
      builder.tls(TlsConfig.builder()
          .keyCertChain(grpcTestFile("server1.pem"), grpcTestFile("server1.key"))
          .build())
          .plaintextAlongsideTls(true);
    }
    if (http3) {
      builder.http3();
    }
    return builder.build().start();
  }

  /** A file of grpc-testing's {@code certs/}, copied out of its jar. */
  static Path grpcTestFile(String name) {
    try (InputStream in = InteropServer.class.getClassLoader().getResourceAsStream("certs/" + name)) {
      if (in == null) {
        throw new IllegalStateException("certs/" + name + " (io.grpc:grpc-testing) is not on the class path");
      }
      Path file = Files.createTempFile("grpc-test-", "-" + name);
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void main(String[] args) throws Exception {
    TripleServer server;
    boolean tls;
    boolean http3;
    boolean logMemory;
    try {
      Flags flags = new Flags(args);
      tls = Boolean.parseBoolean(flags.get("use_tls", "false"));
      http3 = Boolean.parseBoolean(flags.get("use_http3", "false"));
      logMemory = Boolean.parseBoolean(flags.get("log_memory", "false"));
      server = start(flags.get("host", "127.0.0.1"), Integer.parseInt(flags.require("port")), tls, http3);
    } catch (IllegalArgumentException e) {
      System.err.println("interop-server: " + e.getMessage());
      System.err.println("usage: interop-server.sh --port=N [--host=127.0.0.1] [--use_tls=false|true]"
          + " [--use_http3=false|true] [--log_memory=false|true]");
      System.exit(2);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "interop-server-shutdown"));
    System.out.println("Triple interop server listening on " + server.localAddress().getHostString() + ":" + server.port()
        + (tls ? " (TLS and cleartext)" : "") + (http3 ? ", HTTP/3 on UDP " + server.port() : ""));
    if (logMemory) {
      ScheduledExecutorService logger = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "interop-server-memory");
        thread.setDaemon(true);
        return thread;
      });
      logger.scheduleAtFixedRate(InteropServer::logMemory, 0, 1, TimeUnit.SECONDS);
    }
    server.awaitTermination();
  }

  private static void logMemory() {
    ByteBufAllocator allocator = ServerAllocator.get();
    ByteBufAllocatorMetric metric =
        allocator instanceof ByteBufAllocatorMetricProvider provider ? provider.metric() : null;
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    System.out.println("memory allocator=" + allocator.getClass().getSimpleName()
        + " alloc_direct=" + (metric == null ? -1 : metric.usedDirectMemory())
        + " alloc_heap=" + (metric == null ? -1 : metric.usedHeapMemory())
        + " heap_used=" + heap.getUsed() + " heap_committed=" + heap.getCommitted());
    System.out.flush();
  }
}
