package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Metadata;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.serialization.wrapper.InSerialization;
import io.triplerpc.spi.ServerInfo;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer writes plain Java requests in a serialization the chosen provider lists in its metadata, as
 * Dubbo's consumers follow a provider's {@code prefer.serialization}: its interface's own when the provider
 * reads it, else the first the provider lists that it has. Triple providers list every serialization they
 * read, their own first. The server records the serialization each request came in.
 */
class SerializationNegotiationTest {

  @TripleService(name = "triple.test.Hello")
  public interface Hello {
    String hello(String name);
  }

  @TripleService(name = "triple.test.Hello", serialization = "jackson")
  public interface HelloInJackson extends Hello {}

  private final InProcessRegistry registry = new InProcessRegistry();
  private final Queue<String> seen = new ConcurrentLinkedQueue<>();
  private TripleServer server;
  private TripleClient client;

  @AfterEach
  void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  /** Records the serialization each request arrived in. */
  private final ServerInterceptor recording = new ServerInterceptor() {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      return new ForwardingServerCallListener<>(next.startCall(call, headers)) {
        @Override
        public void onMessage(Q message) {
          if (message instanceof InSerialization<?> in) {
            seen.add(in.serialization().name());
          }
          super.onMessage(message);
        }
      };
    }
  };

  /** A Triple server, registered by hand as {@code app} whose metadata lists {@code serializations}. */
  private void provider(String serializations) throws Exception {
    server = TripleServer.builder().host("127.0.0.1").port(0).intercept(recording)
        .addService(Hello.class, name -> "hello " + name).build().start();
    MetadataInfo metadata = MetadataInfo.of("app", List.of(
        new ServerInfo.Service("triple.test.Hello", List.of("hello"), serializations, "", "")));
    registry.publishMetadata(metadata).get();
    registry.map("triple.test.Hello", "app").get();
    registry.register(ServiceInstance.of("app", "127.0.0.1", server.port(), metadata.revision())).get();
    client = TripleClient.builder().cluster(Discovery.using(registry).build()).build();
  }

  @Test
  void theInterfacesOwnIsKeptWhenTheProviderReadsIt() throws Exception {
    provider("fastjson2,hessian2");
    assertEquals("hello a", client.proxy(Hello.class).hello("a"));
    assertEquals(List.of("hessian2"), List.copyOf(seen));
  }

  @Test
  void elseTheFirstTheProviderListsIsWritten() throws Exception {
    provider("fastjson2");
    assertEquals("hello b", client.proxy(Hello.class).hello("b"));
    assertEquals("hello c", client.proxy(HelloInJackson.class).hello("c"));
    assertEquals(List.of("fastjson2", "fastjson2"), List.copyOf(seen));
  }

  @Test
  void aJacksonInterfaceCallingADubboLikeProviderWritesWhatDubboHas() throws Exception {
    provider("fastjson2,hessian2");
    assertEquals("hello d", client.proxy(HelloInJackson.class).hello("d"));
    assertEquals(List.of("fastjson2"), List.copyOf(seen), "Dubbo has no jackson: its first preference is used");
  }

  @Test
  void aTripleProviderListsWhatItReadsItsOwnFirst() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(HelloInJackson.class, name -> "hi " + name)
        .registration(Registration.to(registry).application("own").build()).build().start();
    java.util.concurrent.CompletableFuture<String> revision = new java.util.concurrent.CompletableFuture<>();
    registry.subscribe("own", new InstanceListener() {
      @Override
      public void onResync(java.util.Collection<ServiceInstance> instances) {
        instances.stream().findFirst().ifPresent(instance -> revision.complete(instance.revision()));
      }

      @Override
      public void onChanges(List<InstanceChange> changes) {}
    });
    MetadataInfo metadata = registry.metadata("own", revision.join()).join();
    String served = metadata.services().get(0).serialization();
    assertTrue(served.startsWith("jackson,") && served.contains("hessian2") && served.contains("fastjson2"), served);
  }
}
