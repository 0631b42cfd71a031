package io.triplerpc.registry.internal.wire;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.ApplicationsResponse;
import io.triplerpc.registry.internal.proto.Empty;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.Metadata;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import java.util.concurrent.CompletableFuture;

/**
 * {@code triple.registry.v1.Registry} (see {@code registry.proto}): served by the registry server,
 * called by {@code RemoteRegistry}. The client calls the asynchronous forms; the server implements
 * them too, completing each future at once.
 */
@TripleService(name = "triple.registry.v1.Registry")
public interface RegistryService {

  @TripleMethod(name = "Register")
  CompletableFuture<Lease> register(RegisterRequest request);

  @TripleMethod(name = "Heartbeat")
  CompletableFuture<Lease> heartbeat(HeartbeatRequest request);

  @TripleMethod(name = "Unregister")
  CompletableFuture<Empty> unregister(UnregisterRequest request);

  @TripleMethod(name = "Revoke")
  CompletableFuture<Empty> revoke(RevokeRequest request);

  @TripleMethod(name = "PublishMetadata")
  CompletableFuture<Empty> publishMetadata(Metadata request);

  @TripleMethod(name = "GetMetadata")
  CompletableFuture<Metadata> getMetadata(MetadataRequest request);

  @TripleMethod(name = "Map")
  CompletableFuture<Empty> map(MapRequest request);

  @TripleMethod(name = "Applications")
  CompletableFuture<ApplicationsResponse> applications(ApplicationsRequest request);

  @TripleMethod(name = "Subscribe")
  void subscribe(SubscribeRequest request, StreamObserver<InstanceBatch> batches);
}
