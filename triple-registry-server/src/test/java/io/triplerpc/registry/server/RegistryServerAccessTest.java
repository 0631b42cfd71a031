package io.triplerpc.registry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.internal.wire.WireFormat;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.registry.server.RegistryServerTest.BatchRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A registry server with tokens, driven over real sockets by raw clients sending (or not) the
 * {@code authorization} header, as grpcurl {@code -H} would: who may do what, and that a refused
 * call changes nothing.
 */
class RegistryServerAccessTest {

  private static final String PROVIDER = "provider-token-0123456789abcdef";
  private static final String OTHER_PROVIDER = "other-provider-0123456789abcdef";
  private static final String CONSUMER = "consumer-token-0123456789abcdef";

  private RegistryServer server;
  private final List<TripleClient> clients = new ArrayList<>();

  @BeforeEach
  void start() {
    server = RegistryServer.builder().host("127.0.0.1").port(0)
        .token(PROVIDER, RegistryServer.Right.REGISTER)
        .token(OTHER_PROVIDER, RegistryServer.Right.REGISTER, RegistryServer.Right.SUBSCRIBE)
        .token(CONSUMER, RegistryServer.Right.SUBSCRIBE)
        .build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    server.shutdownNow();
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "registry server did not terminate");
  }

  /** A raw client sending {@code authorization: value} on every call, or no such header if null. */
  private RegistryService registry(String authorization) {
    TripleClient.Builder builder = TripleClient.builder().address("127.0.0.1", server.port());
    if (authorization != null) {
      builder.intercept(header("authorization", authorization));
    }
    TripleClient client = builder.build();
    clients.add(client);
    return client.proxy(RegistryService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5)));
  }

  private RegistryService bearer(String token) {
    return registry("Bearer " + token);
  }

  private static ClientInterceptor header(String name, String value) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options,
          ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(name, value);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  private static Instance instance(String host, int port) {
    return Instance.newBuilder().setApplication("app").setHost(host).setPort(port).setRevision("r1").setWeight(100).build();
  }

  private static RegisterRequest register(String lease, Instance instance) {
    return RegisterRequest.newBuilder().setLeaseId(lease).setTtlMillis(60_000).setInstance(instance).build();
  }

  /** The metadata of "app" serving {@code service}. */
  private static io.triplerpc.registry.internal.proto.Metadata metadata(String service) {
    return WireFormat.toProto(MetadataInfo.of("app",
        List.of(new ServerInfo.Service(service, List.of("SayHello"), "proto", "", ""))));
  }

  private static StatusException failure(CompletableFuture<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    return assertInstanceOf(StatusException.class, e.getCause());
  }

  private static void assertRefused(Status.Code code, CompletableFuture<?> future) {
    StatusException e = failure(future);
    assertEquals(code, e.status().code(), e.toString());
  }

  /** The instances a fresh subscription (with the consumer's token) sees first. */
  private List<Instance> instancesSeen() throws Exception {
    BatchRecorder batches = new BatchRecorder();
    bearer(CONSUMER).subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    InstanceBatch first = batches.await(0);
    assertEquals(InstanceBatch.Type.RESYNC, first.getType());
    return first.getInstancesList();
  }

  @Test
  void aClientWithoutATokenCanNeitherRegisterHeartbeatMapPublishUnregisterNorRevoke() throws Exception {
    Instance good = instance("10.0.0.1", 1000);
    bearer(PROVIDER).register(register("good-lease", good)).get(10, TimeUnit.SECONDS);

    RegistryService anonymous = registry(null);
    assertRefused(Status.Code.UNAUTHENTICATED, anonymous.register(register("bad-lease", instance("10.6.6.6", 666))));
    assertRefused(Status.Code.UNAUTHENTICATED, anonymous.register(register("good-lease", instance("10.6.6.6", 666))));
    assertRefused(Status.Code.UNAUTHENTICATED,
        anonymous.heartbeat(HeartbeatRequest.newBuilder().setLeaseId("good-lease").build()));
    assertRefused(Status.Code.UNAUTHENTICATED,
        anonymous.map(MapRequest.newBuilder().setService("helloworld.Greeter").setApplication("evil-app").build()));
    io.triplerpc.registry.internal.proto.Metadata evil = metadata("evil.Service");
    assertRefused(Status.Code.UNAUTHENTICATED, anonymous.publishMetadata(evil));
    assertRefused(Status.Code.UNAUTHENTICATED,
        anonymous.unregister(UnregisterRequest.newBuilder().setInstance(good).build()));
    assertRefused(Status.Code.UNAUTHENTICATED, anonymous.revoke(RevokeRequest.newBuilder().setLeaseId("good-lease").build()));
    // Reading is closed too.
    assertRefused(Status.Code.UNAUTHENTICATED,
        anonymous.applications(ApplicationsRequest.newBuilder().setService("helloworld.Greeter").build()));
    BatchRecorder refused = new BatchRecorder();
    anonymous.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), refused);
    assertEquals(Status.Code.UNAUTHENTICATED, Status.fromThrowable(refused.awaitError()).code());

    // Nothing changed: the good instance alone, under its lease; no mapping, no metadata.
    assertEquals(List.of(good), instancesSeen());
    assertEquals(1, server.leaseCount());
    RegistryService consumer = bearer(CONSUMER);
    assertEquals(List.of(), consumer.applications(ApplicationsRequest.newBuilder().setService("helloworld.Greeter").build())
        .get(10, TimeUnit.SECONDS).getApplicationsList());
    assertRefused(Status.Code.NOT_FOUND,
        consumer.getMetadata(MetadataRequest.newBuilder().setApplication("app").setRevision(evil.getRevision()).build()));
  }

  @Test
  void aWrongOrMalformedTokenIsRefusedAndTheMessageNeverEchoesIt() {
    String guess = "guessed-token-0123456789abcdef";
    StatusException wrong = failure(bearer(guess).register(register("lease", instance("10.6.6.6", 666))));
    assertEquals(Status.Code.UNAUTHENTICATED, wrong.status().code());
    assertFalse(wrong.toString().contains(guess), wrong.toString());

    StatusException basic = failure(registry("Basic " + PROVIDER).register(register("lease", instance("10.6.6.6", 666))));
    assertEquals(Status.Code.UNAUTHENTICATED, basic.status().code());
    assertFalse(basic.toString().contains(PROVIDER), basic.toString());

    // A token with one character changed is as unknown as any other.
    String nearMiss = PROVIDER.substring(0, PROVIDER.length() - 1) + "0";
    assertRefused(Status.Code.UNAUTHENTICATED, bearer(nearMiss).map(
        MapRequest.newBuilder().setService("s").setApplication("a").build()));
  }

  @Test
  void aSubscribeOnlyTokenCannotRegisterAndARegisterOnlyTokenCannotSubscribe() throws Exception {
    RegistryService consumer = bearer(CONSUMER);
    StatusException denied = failure(consumer.register(register("lease", instance("10.6.6.6", 666))));
    assertEquals(Status.Code.PERMISSION_DENIED, denied.status().code());
    assertTrue(denied.status().description().contains("register right"), denied.toString());
    assertRefused(Status.Code.PERMISSION_DENIED, consumer.publishMetadata(metadata("helloworld.Greeter")));
    assertRefused(Status.Code.PERMISSION_DENIED,
        consumer.map(MapRequest.newBuilder().setService("helloworld.Greeter").setApplication("app").build()));

    RegistryService provider = bearer(PROVIDER);
    BatchRecorder batches = new BatchRecorder();
    provider.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    assertEquals(Status.Code.PERMISSION_DENIED, Status.fromThrowable(batches.awaitError()).code());

    // Each within its rights: the provider registers, the consumer sees it.
    io.triplerpc.registry.internal.proto.Metadata greeter = metadata("helloworld.Greeter");
    provider.publishMetadata(greeter).get(10, TimeUnit.SECONDS);
    provider.register(register("lease", instance("10.0.0.1", 1000))).get(10, TimeUnit.SECONDS);
    assertEquals(List.of(instance("10.0.0.1", 1000)), instancesSeen());
    assertEquals(greeter, consumer.getMetadata(MetadataRequest.newBuilder().setApplication("app")
        .setRevision(greeter.getRevision()).build()).get(10, TimeUnit.SECONDS));
  }

  @Test
  void aRegisterTokenCannotRenewRevokeOrTakeOverAnotherTokensLeaseOrInstance() throws Exception {
    Instance owned = instance("10.0.0.1", 1000);
    RegistryService owner = bearer(PROVIDER);
    owner.register(register("owner-lease", owned)).get(10, TimeUnit.SECONDS);

    RegistryService other = bearer(OTHER_PROVIDER);
    assertRefused(Status.Code.PERMISSION_DENIED,
        other.heartbeat(HeartbeatRequest.newBuilder().setLeaseId("owner-lease").build()));
    assertRefused(Status.Code.PERMISSION_DENIED, other.revoke(RevokeRequest.newBuilder().setLeaseId("owner-lease").build()));
    assertRefused(Status.Code.PERMISSION_DENIED, other.register(register("owner-lease", instance("10.6.6.6", 666))));
    assertRefused(Status.Code.PERMISSION_DENIED, other.register(register("other-lease", owned)));
    assertRefused(Status.Code.PERMISSION_DENIED, other.unregister(UnregisterRequest.newBuilder().setInstance(owned).build()));
    assertRefused(Status.Code.PERMISSION_DENIED,
        other.unregister(UnregisterRequest.newBuilder().setLeaseId("owner-lease").setInstance(owned).build()));
    assertEquals(List.of(owned), instancesSeen());

    // Its own lease, next to the other, is its to end.
    Instance its = instance("10.0.0.2", 1000);
    other.register(register("other-lease", its)).get(10, TimeUnit.SECONDS);
    assertEquals(2, instancesSeen().size());
    other.revoke(RevokeRequest.newBuilder().setLeaseId("other-lease").build()).get(10, TimeUnit.SECONDS);
    assertEquals(List.of(owned), instancesSeen());

    // The owner keeps every right over its own, lease or no lease.
    owner.heartbeat(HeartbeatRequest.newBuilder().setLeaseId("owner-lease").build()).get(10, TimeUnit.SECONDS);
    owner.unregister(UnregisterRequest.newBuilder().setInstance(owned).build()).get(10, TimeUnit.SECONDS);
    assertEquals(List.of(), instancesSeen());
  }
}
