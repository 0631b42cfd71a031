package io.triplerpc.registry.zookeeper;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataInfoV2;
import io.triplerpc.registry.zookeeper.internal.proto.MetadataRequest;
import io.triplerpc.registry.zookeeper.internal.proto.ServiceInfoV2;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;

/**
 * Stands in for a Dubbo 3.3 provider whose metadata is local (Dubbo's default): a Triple server that
 * answers MetadataServiceV2 under the version and group Dubbo exports it with, and an instance znode
 * in the shape Dubbo writes (the captured {@code capture-local} one, with this server's port and
 * application), written in the session of the client given, as if the Dubbo process held it.
 */
final class FakeDubboProvider implements AutoCloseable {

  /** Dubbo's MetadataServiceV2 as Triple declares it. */
  @TripleService(name = "org.apache.dubbo.metadata.MetadataServiceV2")
  public interface MetadataServiceV2 {
    @TripleMethod(name = "GetMetadataInfo")
    MetadataInfoV2 getMetadataInfo(MetadataRequest request);
  }

  static final String CAPTURED_REVISION = "fbc5f77d126d875f3c0e98d4a4de8a2c";

  final String application;
  final String revision;
  final TripleServer server;
  final AtomicInteger metadataCalls = new AtomicInteger();

  /**
   * A provider of {@code application} serving {@code answer} (whose version names the revision) and,
   * if {@code hello} is not null, the {@link Hello} service.
   */
  FakeDubboProvider(String application, MetadataInfoV2 answer, Hello hello) {
    this.application = application;
    this.revision = answer.getVersion();
    MetadataServiceV2 metadata = request -> {
      metadataCalls.incrementAndGet();
      if (!request.getRevision().equals(revision)) {
        // What Dubbo 3.3.6 answers for a revision it does not have.
        throw new StatusException(Status.UNKNOWN.withDescription("Internal Server Error"));
      }
      return answer;
    };
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(MetadataServiceV2.class, metadata, DubboMetadataService.VERSION, application);
    if (hello != null) {
      builder.addService(Hello.class, hello);
    }
    this.server = builder.build().start();
  }

  int port() {
    return server.localAddress().getPort();
  }

  /** Dubbo's MetadataServiceV2 answer for an application serving {@link Hello} over tri on {@code port}. */
  static MetadataInfoV2 helloAnswer(String application, String revision, int port) {
    return MetadataInfoV2.newBuilder()
        .setApp(application)
        .setVersion(revision)
        .putServices("triple.test.zk.Hello:tri", ServiceInfoV2.newBuilder()
            .setName("triple.test.zk.Hello").setProtocol("tri").setPort(port).setPath("triple.test.zk.Hello")
            .putParams("side", "provider").putParams("release", "3.3.6").putParams("methods", "hello")
            .putParams("interface", "triple.test.zk.Hello").putParams("application", application)
            .putParams("prefer.serialization", "hessian2,fastjson2").build())
        .build();
  }

  /** The instance znode's path: {@code /services/{application}/127.0.0.1:{port}}. */
  String instancePath() {
    return "/services/" + application + "/127.0.0.1:" + port();
  }

  /** The captured instance JSON of capture-local, moved to this provider's application, port and revision. */
  String instanceJson() {
    return DubboCapture.instance(DubboCapture.LOCAL).data()
        .replace(DubboCapture.LOCAL, application)
        .replace("50061", Integer.toString(port()))
        .replace(CAPTURED_REVISION, revision);
  }

  /** Registers the instance znode, ephemeral in {@code dubboSession}'s session. */
  void register(CuratorFramework dubboSession) throws Exception {
    DubboCapture.write(dubboSession, instancePath(), true, instanceJson().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(5));
  }
}
