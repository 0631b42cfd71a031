package io.triplerpc.interop.memory;

import com.google.protobuf.ByteString;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.TestService;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The attack of issue 36, item 4, from outside the server's JVM: the interop server
 * ({@code io.triplerpc.interop.InteropServer --log_memory=true}) runs in a JVM of its own, and this
 * program opens {@code --connections} HTTP/2 connections to it, each with a flow-control window of 0,
 * and on each opens {@code --streams} {@code StreamingOutputCall}s that ask for {@code --responses}
 * responses of {@code --response-size} bytes; it reads frames (to see the answers and any GOAWAY) but
 * never opens a window, so nothing of the responses can leave the server. Once every stream is
 * answered or its connection refused, and {@code --hold} seconds more, it closes every connection,
 * then waits and samples again.
 *
 * <p>What it samples, from outside: the server's resident memory ({@code VmRSS} of
 * {@code /proc/PID/status}, every 100 ms, its peak kept) and the memory the JVM says it committed
 * ({@code jcmd PID VM.native_memory summary}: the Java heap, and "Other", where the direct memory of
 * Netty's allocators is counted); and, from the server's own log line once a second, the buffer
 * allocator's own metric (its direct memory) and the heap. Samples: before (after a warm-up of
 * ordinary calls, 1 MiB responses among them, and a few quiet seconds), peak, and {@code --after}
 * seconds (default 10 and 60) after the last connection closed. The timeline goes to
 * {@code --out}/timeline.csv, the summary to standard output and {@code --out}/summary.txt.
 *
 * <pre>
 * SlowReaders [--label NAME] [--server-jvm "OPTIONS"] [--env "NAME=VALUE ..."] [--connections 8]
 *             [--streams 16] [--responses 8] [--response-size 1048576] [--hold 5] [--after 10,60]
 *             [--out DIR]
 * </pre>
 */
public final class SlowReaders {

  private static final byte[] CLIENT_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADERS = 0x1;
  private static final int RST_STREAM = 0x3;
  private static final int SETTINGS = 0x4;
  private static final int GOAWAY = 0x7;
  private static final int FLAG_END_STREAM = 0x1;
  private static final int FLAG_END_HEADERS = 0x4;
  private static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
  private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");
  private static final Pattern NMT = Pattern.compile("-\\s+(Java Heap|Other) \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");
  private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=(\\d+)KB, committed=(\\d+)KB");

  private final Map<String, String> flags;
  private final long startNanos = System.nanoTime();
  private Process server;
  private volatile Map<String, Long> lastLog = Map.of();
  /** Completed with each fresh memory line the server logs, then replaced: what {@link #sample} waits for. */
  private volatile CompletableFuture<Map<String, Long>> nextLog = new CompletableFuture<>();
  private volatile String allocatorName = "?";
  private volatile long peakDirect;
  private volatile long peakRss;
  /** One line a second, from the server's memory line: seconds since start, resident, allocator's direct, heap. */
  private final List<String> timeline =
      new ArrayList<>(List.of("seconds,rss_bytes,alloc_direct_bytes,heap_used_bytes,heap_committed_bytes"));
  private final CountDownLatch listening = new CountDownLatch(1);
  private volatile int port;

  private SlowReaders(Map<String, String> flags) {
    this.flags = flags;
  }

  public static void main(String[] args) throws Exception {
    new SlowReaders(parse(args)).run();
  }

  private void run() throws Exception {
    String label = flags.getOrDefault("label", "run");
    int connections = Integer.parseInt(flags.getOrDefault("connections", "8"));
    int streams = Integer.parseInt(flags.getOrDefault("streams", "16"));
    int responses = Integer.parseInt(flags.getOrDefault("responses", "8"));
    int responseSize = Integer.parseInt(flags.getOrDefault("response-size", String.valueOf(1 << 20)));
    long hold = Long.parseLong(flags.getOrDefault("hold", "5"));
    long[] after = Arrays.stream(flags.getOrDefault("after", "10,60").split(",")).mapToLong(Long::parseLong).toArray();
    Path out = Path.of(flags.getOrDefault("out", "target/slow-readers/" + label));
    Files.createDirectories(out);

    startServer(out);
    if (!listening.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the server did not start; see " + out.resolve("server.log"));
    }
    Thread sampler = new Thread(this::sampleRss, "rss-sampler");
    sampler.setDaemon(true);
    sampler.start();
    List<String> summary = new ArrayList<>();
    summary.add("slow-readers " + label + ": server JVM \"" + flags.getOrDefault("server-jvm", "") + "\" env \""
        + flags.getOrDefault("env", "") + "\"; " + connections + " connections x " + streams + " streams x "
        + responses + " responses of " + responseSize + " bytes; " + Runtime.getRuntime().availableProcessors()
        + " cores");
    try {
      warmUp();
      Thread.sleep(5_000);
      summary.add(sample("before"));
      peakRss = 0;
      peakDirect = 0;

      List<Attacker> attackers = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        attackers.add(new Attacker(streams, responses, responseSize));
      }
      CompletableFuture.allOf(attackers.stream().map(a -> a.settled).toArray(CompletableFuture[]::new))
          .get(120, TimeUnit.SECONDS);
      Thread.sleep(TimeUnit.SECONDS.toMillis(hold));
      String peak = sample("peak");
      int refused = 0;
      int answered = 0;
      int dropped = 0;
      for (Attacker attacker : attackers) {
        refused += attacker.goAway != null ? 1 : 0;
        answered += attacker.headers.get();
        dropped += attacker.trailersOnly.get() + attacker.resets.get();
      }
      summary.add(peak + String.format(Locale.ROOT, " (peaks over the attack: rss %s, alloc_direct %s)",
          mib(peakRss), mib(peakDirect)));
      summary.add("  connections refused with GOAWAY: " + refused + " of " + connections + "; streams answered with"
          + " headers: " + answered + ", ended without a response: " + dropped
          + (attackers.stream().anyMatch(a -> a.goAway != null) ? "; first GOAWAY: "
              + attackers.stream().filter(a -> a.goAway != null).findFirst().orElseThrow().goAway : ""));
      long closed = System.nanoTime();
      for (Attacker attacker : attackers) {
        attacker.close();
      }
      for (long seconds : after) {
        long wait = TimeUnit.SECONDS.toNanos(seconds) - (System.nanoTime() - closed);
        if (wait > 0) {
          Thread.sleep(TimeUnit.NANOSECONDS.toMillis(wait));
        }
        summary.add(sample("+" + seconds + "s"));
      }
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    synchronized (timeline) {
      Files.write(out.resolve("timeline.csv"), timeline, StandardCharsets.UTF_8);
    }
    Files.write(out.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    summary.forEach(System.out::println);
  }

  private void startServer(Path out) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:NativeMemoryTracking=summary");
    String jvm = flags.getOrDefault("server-jvm", "").trim();
    if (!jvm.isEmpty()) {
      command.addAll(Arrays.asList(jvm.split("\\s+")));
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.triplerpc.interop.InteropServer",
        "--port=0", "--log_memory=true"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    String env = flags.getOrDefault("env", "").trim();
    if (!env.isEmpty()) {
      for (String pair : env.split("\\s+")) {
        int eq = pair.indexOf('=');
        builder.environment().put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    server = builder.start();
    PrintWriter log = new PrintWriter(Files.newBufferedWriter(out.resolve("server.log"), StandardCharsets.UTF_8), true);
    Thread reader = new Thread(() -> readServer(log), "server-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Keeps the server's last memory line, and the peak of its allocator's direct memory. */
  private void readServer(PrintWriter log) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        log.println(line);
        Matcher listen = LISTENING.matcher(line);
        if (listen.find()) {
          port = Integer.parseInt(listen.group(1));
          listening.countDown();
        }
        if (line.startsWith("memory ")) {
          Map<String, Long> values = new HashMap<>();
          for (String field : line.substring("memory ".length()).split(" ")) {
            int eq = field.indexOf('=');
            if (field.startsWith("allocator=")) {
              allocatorName = field.substring(eq + 1);
            } else {
              values.put(field.substring(0, eq), Long.parseLong(field.substring(eq + 1)));
            }
          }
          lastLog = values;
          CompletableFuture<Map<String, Long>> fresh = nextLog;
          nextLog = new CompletableFuture<>();
          fresh.complete(values);
          peakDirect = Math.max(peakDirect, values.get("alloc_direct"));
          synchronized (timeline) {
            timeline.add(String.format(Locale.ROOT, "%.1f,%d,%d,%d,%d", seconds(), rss(), values.get("alloc_direct"),
                values.get("heap_used"), values.get("heap_committed")));
          }
        }
      }
    } catch (IOException e) {
      log.println("[server output read failed: " + e + "]");
    } finally {
      log.close();
    }
  }

  private void sampleRss() {
    while (server.isAlive()) {
      peakRss = Math.max(peakRss, rss());
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The server's resident memory in bytes, from {@code /proc/PID/status}. */
  private long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(server.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException gone) {
      return 0;
    }
    return 0;
  }

  /** One line: resident memory, the allocator's direct memory, the heap, and what NMT says the JVM committed. */
  private String sample(String name) throws IOException, InterruptedException {
    // The allocator's metric is logged once a second: a fresh line, not one from before what is sampled.
    Map<String, Long> log;
    try {
      log = nextLog.get(3, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      log = lastLog;
    }
    long rss = rss();
    Process jcmd = new ProcessBuilder("jcmd", String.valueOf(server.pid()), "VM.native_memory", "summary")
        .redirectErrorStream(true).start();
    String nmt = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    jcmd.waitFor(30, TimeUnit.SECONDS);
    Map<String, Long> committed = new HashMap<>();
    Matcher m = NMT.matcher(nmt);
    while (m.find()) {
      committed.put(m.group(1), Long.parseLong(m.group(3)) * 1024);
    }
    Matcher total = NMT_TOTAL.matcher(nmt);
    long nmtTotal = total.find() ? Long.parseLong(total.group(2)) * 1024 : -1;
    return String.format(Locale.ROOT,
        "  %-7s rss %s | %s alloc_direct %s | heap used %s, committed %s | NMT committed: total %s, Java heap %s,"
            + " Other (direct) %s",
        name, mib(rss), allocatorName, mib(log.getOrDefault("alloc_direct", -1L)), mib(log.getOrDefault("heap_used", -1L)),
        mib(log.getOrDefault("heap_committed", -1L)), mib(nmtTotal), mib(committed.getOrDefault("Java Heap", -1L)),
        mib(committed.getOrDefault("Other", -1L)));
  }

  /** Ordinary calls first, so that the baseline has loaded the call path and served large responses once. */
  private void warmUp() throws Exception {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", port).build()) {
      TestService service = client.proxy(TestService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30)));
      for (int i = 0; i < 50; i++) {
        service.unaryCall(SimpleRequest.newBuilder().setResponseSize(i % 5 == 0 ? 1 << 20 : 1024)
            .setPayload(io.grpc.testing.integration.Messages.Payload.newBuilder().setBody(ByteString.copyFrom(new byte[64])))
            .build());
      }
    }
  }

  /**
   * One connection that asks for large responses and never opens its window: one thread writes its
   * requests, then reads frames until the connection ends or is closed here.
   */
  private final class Attacker {
    final CompletableFuture<Void> settled = new CompletableFuture<>();
    final AtomicInteger headers = new AtomicInteger();
    final AtomicInteger trailersOnly = new AtomicInteger();
    final AtomicInteger resets = new AtomicInteger();
    volatile String goAway;
    private final Socket socket = new Socket();
    private final int streams;

    Attacker(int streams, int responses, int responseSize) throws IOException {
      this.streams = streams;
      // A small receive buffer: what the server cannot send stays in the server, not in this kernel's buffers.
      socket.setReceiveBufferSize(4096);
      socket.connect(new InetSocketAddress("127.0.0.1", port));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
      out.write(CLIENT_PREFACE);
      frame(out, SETTINGS, 0, 0, ByteBuffer.allocate(6).putShort((short) SETTINGS_INITIAL_WINDOW_SIZE).putInt(0).array());
      StreamingOutputCallRequest.Builder request = StreamingOutputCallRequest.newBuilder();
      for (int i = 0; i < responses; i++) {
        request.addResponseParameters(ResponseParameters.newBuilder().setSize(responseSize));
      }
      byte[] message = request.build().toByteArray();
      byte[] framed = ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message).array();
      DefaultHttp2HeadersEncoder hpack = new DefaultHttp2HeadersEncoder();
      for (int s = 0; s < streams; s++) {
        int stream = 1 + 2 * s;
        Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http")
            .path("/grpc.testing.TestService/StreamingOutputCall").authority("127.0.0.1:" + port);
        headers.add("content-type", "application/grpc");
        headers.add("te", "trailers");
        ByteBuf block = Unpooled.buffer();
        try {
          hpack.encodeHeaders(stream, headers, block);
          frame(out, HEADERS, FLAG_END_HEADERS, stream, ByteBufUtil.getBytes(block));
        } catch (Http2Exception e) {
          throw new IOException(e);
        } finally {
          block.release();
        }
        frame(out, 0x0, FLAG_END_STREAM, stream, framed);
      }
      out.flush();
      Thread reader = new Thread(this::read, "attacker-" + socket.getLocalPort());
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      try {
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        while (true) {
          int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
          int type = in.readUnsignedByte();
          int flags = in.readUnsignedByte();
          in.readInt();
          byte[] payload = new byte[length];
          in.readFully(payload);
          if (type == GOAWAY) {
            goAway = "error " + ByteBuffer.wrap(payload, 4, 4).getInt() + " \""
                + new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8) + "\"";
            settled.complete(null);
          } else if (type == HEADERS && (flags & FLAG_END_STREAM) != 0) {
            trailersOnly.incrementAndGet();
          } else if (type == HEADERS) {
            headers.incrementAndGet();
          } else if (type == RST_STREAM) {
            resets.incrementAndGet();
          }
          if (headers.get() + trailersOnly.get() + resets.get() >= streams) {
            settled.complete(null);
          }
        }
      } catch (IOException closed) {
        settled.complete(null);
      }
    }

    void close() throws IOException {
      socket.close();
    }
  }

  private static void frame(DataOutputStream out, int type, int flags, int stream, byte[] payload) throws IOException {
    out.writeByte(payload.length >>> 16);
    out.writeShort(payload.length & 0xffff);
    out.writeByte(type);
    out.writeByte(flags);
    out.writeInt(stream);
    out.write(payload);
  }

  private double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "?" : String.format(Locale.ROOT, "%.0f MiB", bytes / (1024.0 * 1024.0));
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument: " + arg);
      }
      int eq = arg.indexOf('=');
      if (eq > 0) {
        flags.put(arg.substring(2, eq), arg.substring(eq + 1));
      } else {
        flags.put(arg.substring(2), args[++i]);
      }
    }
    return flags;
  }
}
