package io.triplerpc.registry.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.Metadata;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import io.triplerpc.registry.internal.wire.WireFormat;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Fuzz target for the registry's wire messages (Jazzer): a sequence of {@code triple.registry.v1}
 * requests, each message's bytes from the fuzzer, parsed as the server's protobuf codec parses them and
 * handed to the registry server's service ({@link RegistryServiceImpl}, on a {@link ManualClock} that
 * never moves, so no lease expires); and instance and metadata records as a consumer decodes them
 * ({@link WireFormat#fromProto}).
 *
 * <p>Beyond "nothing escapes": each request completes, with its answer or with a status the protocol
 * documents (INVALID_ARGUMENT for a bad record, NOT_FOUND for an unknown lease or revision), never
 * another exception; the server's state stays sane: exactly the leases granted and not revoked are
 * held, each still answers its heartbeat, and a well-formed registration still works afterwards; a
 * record a consumer accepts round-trips through its message unchanged, and one it refuses is refused
 * with IllegalArgumentException (skipped with a warning), nothing else.
 */
class RegistryWireFuzzTest {

  private static final int KINDS = 11;

  /**
   * {@code input} is a sequence of requests, each a byte naming its kind (register, heartbeat,
   * unregister, revoke, publish metadata, get metadata, map, applications, subscribe; then an instance
   * or metadata record a consumer reads), a byte giving its length, and that many bytes of the message.
   */
  @FuzzTest
  void messages(byte[] input) throws Exception {
    try (ManualClock clock = new ManualClock()) {
      RegistryServiceImpl registry = new RegistryServiceImpl(Duration.ofSeconds(30), Duration.ofMinutes(5),
          Duration.ZERO, RegistryAccess.open(), clock.scheduler(), clock::nanoTime);
      try {
        Set<String> leases = new HashSet<>();
        for (int i = 0; i + 1 < input.length; ) {
          int kind = (input[i] & 0xff) % KINDS;
          int length = Math.min(input[i + 1] & 0xff, input.length - i - 2);
          byte[] bytes = java.util.Arrays.copyOfRange(input, i + 2, i + 2 + length);
          i += 2 + length;
          try {
            request(registry, kind, bytes, leases);
          } catch (InvalidProtocolBufferException notProtobuf) {
            // Refused by the codec before the registry sees it.
          }
          assertEquals(leases.size(), registry.leaseCount(), "exactly the leases granted and not revoked");
        }
        for (String lease : leases) {
          assertEquals(lease, answer(registry.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(lease).build()))
              .getLeaseId(), "every lease held answers its heartbeat");
        }
        Lease fresh = answer(registry.register(RegisterRequest.newBuilder()
            .setInstance(Instance.newBuilder().setApplication("fuzz-check").setHost("10.9.9.9").setPort(9).setRevision("r"))
            .build()));
        assertEquals(fresh.getLeaseId(), answer(registry.heartbeat(
            HeartbeatRequest.newBuilder().setLeaseId(fresh.getLeaseId()).build())).getLeaseId(),
            "a well-formed registration still works");
      } finally {
        registry.close();
      }
    }
  }

  private static void request(RegistryServiceImpl registry, int kind, byte[] bytes, Set<String> leases)
      throws Exception {
    switch (kind) {
      case 0: {
        RegisterRequest request = RegisterRequest.parseFrom(bytes);
        Lease lease = outcome(registry.register(request), Status.Code.INVALID_ARGUMENT);
        if (lease != null) {
          assertTrue(request.getLeaseId().isEmpty() || request.getLeaseId().equals(lease.getLeaseId()));
          leases.add(lease.getLeaseId());
        }
        break;
      }
      case 1:
        outcome(registry.heartbeat(HeartbeatRequest.parseFrom(bytes)), Status.Code.NOT_FOUND);
        break;
      case 2:
        outcome(registry.unregister(UnregisterRequest.parseFrom(bytes)), Status.Code.INVALID_ARGUMENT);
        break;
      case 3: {
        RevokeRequest request = RevokeRequest.parseFrom(bytes);
        outcome(registry.revoke(request));
        leases.remove(request.getLeaseId());
        break;
      }
      case 4:
        outcome(registry.publishMetadata(Metadata.parseFrom(bytes)), Status.Code.INVALID_ARGUMENT);
        break;
      case 5:
        outcome(registry.getMetadata(MetadataRequest.parseFrom(bytes)), Status.Code.NOT_FOUND);
        break;
      case 6:
        outcome(registry.map(MapRequest.parseFrom(bytes)), Status.Code.INVALID_ARGUMENT);
        break;
      case 7:
        outcome(registry.applications(ApplicationsRequest.parseFrom(bytes)));
        break;
      case 8:
        registry.subscribe(SubscribeRequest.parseFrom(bytes), new RefusalCheck());
        break;
      case 9:
        consumerReads(Instance.parseFrom(bytes));
        break;
      default:
        consumerReads(Metadata.parseFrom(bytes));
        break;
    }
  }

  /** A consumer's reading of an instance record: refused as malformed, or accepted and round-tripped. */
  private static void consumerReads(Instance message) {
    ServiceInstance instance;
    try {
      instance = WireFormat.fromProto(message);
    } catch (IllegalArgumentException malformed) {
      return;
    }
    assertEquals(instance, WireFormat.fromProto(WireFormat.toProto(instance)), "an accepted record round-trips");
  }

  private static void consumerReads(Metadata message) {
    MetadataInfo info;
    try {
      info = WireFormat.fromProto(message);
    } catch (IllegalArgumentException malformed) {
      return;
    }
    assertEquals(info, WireFormat.fromProto(WireFormat.toProto(info)), "accepted metadata round-trips");
  }

  /** The answer of a request that must succeed. */
  private static <T> T answer(CompletableFuture<T> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  /** The answer, or null when the request failed with one of {@code allowed}: anything else fails the input. */
  private static <T> T outcome(CompletableFuture<T> future, Status.Code... allowed) throws Exception {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      StatusException status = assertInstanceOf(StatusException.class, e.getCause(), "a failure is a status");
      assertTrue(java.util.Arrays.asList(allowed).contains(status.status().code()),
          () -> "a documented status, not " + status.status());
      return null;
    }
  }

  /** A subscription stream: a refusal is INVALID_ARGUMENT, or UNAVAILABLE when the server shuts down. */
  private static final class RefusalCheck implements StreamObserver<InstanceBatch> {
    @Override
    public void onNext(InstanceBatch batch) {}

    @Override
    public void onError(Throwable t) {
      Status.Code code = assertInstanceOf(StatusException.class, t).status().code();
      assertTrue(code == Status.Code.INVALID_ARGUMENT || code == Status.Code.UNAVAILABLE, code::toString);
    }

    @Override
    public void onCompleted() {}
  }
}
