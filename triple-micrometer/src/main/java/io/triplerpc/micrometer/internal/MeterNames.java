package io.triplerpc.micrometer.internal;

import java.time.Duration;

/** Meter and tag names, as gRPC's proposal A66 has them where it has them, and its histogram buckets. */
public final class MeterNames {

  private MeterNames() {}

  public static final String CLIENT_ATTEMPT_STARTED = "grpc.client.attempt.started";
  public static final String CLIENT_ATTEMPT_DURATION = "grpc.client.attempt.duration";
  public static final String CLIENT_ATTEMPT_SENT = "grpc.client.attempt.sent_total_compressed_message_size";
  public static final String CLIENT_ATTEMPT_RCVD = "grpc.client.attempt.rcvd_total_compressed_message_size";
  public static final String CLIENT_CALL_DURATION = "grpc.client.call.duration";
  public static final String SERVER_CALL_STARTED = "grpc.server.call.started";
  public static final String SERVER_CALL_DURATION = "grpc.server.call.duration";
  public static final String SERVER_CALL_SENT = "grpc.server.call.sent_total_compressed_message_size";
  public static final String SERVER_CALL_RCVD = "grpc.server.call.rcvd_total_compressed_message_size";

  public static final String CLIENT_CALLS_ACTIVE = "triple.client.calls.active";
  public static final String SERVER_CALLS_ACTIVE = "triple.server.calls.active";
  public static final String SERVER_CONNECTIONS = "triple.server.connections";
  public static final String SERVER_WRITE_COMMANDS = "triple.server.write.commands";
  public static final String SERVER_WRITE_FLUSHES = "triple.server.write.flushes";
  public static final String CLIENT_WRITE_COMMANDS = "triple.client.write.commands";
  public static final String CLIENT_WRITE_FLUSHES = "triple.client.write.flushes";
  public static final String REGISTRY_INSTANCES = "triple.registry.instances";
  public static final String REGISTRY_PUSH_LAG = "triple.registry.push.lag";

  public static final String METHOD = "grpc.method";
  public static final String TARGET = "grpc.target";
  public static final String STATUS = "grpc.status";
  /** Triple's own: the wire protocol a server call came in, {@code grpc}, {@code grpc-web} or {@code connect}. */
  public static final String PROTOCOL = "triple.protocol";
  /** Triple's own: the service a discovering client calls, and the version and group it calls (empty for none). */
  public static final String SERVICE = "triple.service";
  public static final String SERVICE_VERSION = "triple.service.version";
  public static final String SERVICE_GROUP = "triple.service.group";
  /** Triple's own: the application whose instances the registry pushed. */
  public static final String APPLICATION = "triple.application";
  /** The {@code grpc.method} of every method a server does not serve, as A66 says. */
  public static final String OTHER = "other";

  /**
   * A66's latency buckets, in seconds, without its 0: Micrometer takes positive boundaries only, and no call
   * takes no time.
   */
  static final Duration[] LATENCY_BUCKETS = seconds(0.00001, 0.00005, 0.0001, 0.0003, 0.0006, 0.0008, 0.001,
      0.002, 0.003, 0.004, 0.005, 0.006, 0.008, 0.01, 0.013, 0.016, 0.02, 0.025, 0.03, 0.04, 0.05, 0.065, 0.08,
      0.1, 0.13, 0.16, 0.2, 0.25, 0.3, 0.4, 0.5, 0.65, 0.8, 1, 2, 5, 10, 20, 50, 100);

  /**
   * A66's size buckets, in bytes, without its 0 (Micrometer takes positive boundaries only): a call of
   * empty messages only falls in the first, 1024.
   */
  static final double[] SIZE_BUCKETS = {1024, 2048, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216,
      67108864, 268435456, 1073741824, 4294967296.0};

  private static Duration[] seconds(double... seconds) {
    Duration[] durations = new Duration[seconds.length];
    for (int i = 0; i < seconds.length; i++) {
      durations[i] = Duration.ofNanos(Math.round(seconds[i] * 1e9));
    }
    return durations;
  }
}
