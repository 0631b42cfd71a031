package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LoadBalancing#CONSISTENT_HASH} through {@link Discovery}, with four real servers on loopback in an
 * {@link InProcessRegistry}: a key's calls go to one instance whichever way the key is given (the proxy's
 * arguments, the call options, a request header) and whichever consumer makes them, and when an instance
 * leaves only its keys move.
 */
class ConsistentHashBalancingTest {

  private static final String HEADER = "x-user";
  private static final int KEYS = 40;

  private final InProcessRegistry registry = new InProcessRegistry();
  private final Map<String, TripleServer> servers = new HashMap<>();
  private final List<TripleClient> clients = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers.values()) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  private void provider(String name) {
    servers.put(name, TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named(name))
        .registration(Registration.to(registry).application("hash-app").build())
        .build().start());
  }

  private TripleClient consumer(RecordingDiscoveryObserver seen) throws InterruptedException {
    TripleClient client = TripleClient.builder().cluster(Discovery.using(registry)
        .loadBalancing(LoadBalancing.CONSISTENT_HASH).hashKeyHeader(HEADER).observer(seen).build()).build();
    clients.add(client);
    client.proxy(Whoami.class).who("first");
    seen.awaitInstances("triple.test.Whoami", servers.size());
    return client;
  }

  /** Adds {@code value} as the {@code x-user} header of every call. */
  private static ClientInterceptor header(String value) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(
          io.triplerpc.MethodDescriptor<Q, R> method, CallOptions options, io.triplerpc.ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(HEADER, value);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  /** Each key's instance, called by its first argument, three times each (always the same one). */
  private static Map<String, String> ownersByArgument(TripleClient client) {
    Whoami byArgument = client.proxy(Whoami.class, CallOptions.DEFAULT.withHashArguments(0));
    Map<String, String> owners = new HashMap<>();
    for (int k = 0; k < KEYS; k++) {
      String key = "user-" + k;
      String owner = byArgument.who(key);
      owners.put(key, owner);
      assertEquals(owner, byArgument.who(key), key);
      assertEquals(owner, byArgument.whoIdempotent(key), key + ", another method");
    }
    return owners;
  }

  @Test
  void aKeysCallsGoToOneInstanceHoweverTheKeyIsGivenAndOnEveryConsumer() throws Exception {
    for (String name : List.of("a", "b", "c", "d")) {
      provider(name);
    }
    TripleClient first = consumer(new RecordingDiscoveryObserver());
    Map<String, String> owners = ownersByArgument(first);
    assertTrue(new HashSet<>(owners.values()).size() >= 3, "keys spread over the instances: " + owners);

    for (int k = 0; k < KEYS; k += 3) {
      String key = "user-" + k;
      Whoami byOption = first.proxy(Whoami.class, CallOptions.DEFAULT.withHashKey(key));
      assertEquals(owners.get(key), byOption.who("anything"), key + " given as the call's hash key");
      Whoami byHeader = first.proxy(Whoami.class, CallOptions.DEFAULT.withInterceptors(header(key)));
      assertEquals(owners.get(key), byHeader.who("anything"), key + " given as a request header");
    }

    TripleClient second = consumer(new RecordingDiscoveryObserver());
    assertEquals(owners, ownersByArgument(second), "another consumer sends each key to the same instance");
  }

  @Test
  void whenAnInstanceLeavesOnlyItsKeysMove() throws Exception {
    for (String name : List.of("a", "b", "c", "d")) {
      provider(name);
    }
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    TripleClient client = consumer(seen);
    Map<String, String> before = ownersByArgument(client);
    String leaving = before.get("user-0");
    TripleServer server = servers.remove(leaving);
    server.shutdown();
    server.awaitTermination(Duration.ofSeconds(5));
    seen.awaitInstances("triple.test.Whoami", 3);

    Map<String, String> after = ownersByArgument(client);
    for (Map.Entry<String, String> e : before.entrySet()) {
      if (e.getValue().equals(leaving)) {
        assertNotEquals(leaving, after.get(e.getKey()), e.getKey());
      } else {
        assertEquals(e.getValue(), after.get(e.getKey()), e.getKey() + " stays where it was");
      }
    }
  }

  @Test
  void hashSettingsAreChecked() {
    Discovery.Builder builder = Discovery.using(registry);
    assertThrows(IllegalArgumentException.class, () -> builder.hashNodes(3));
    assertThrows(IllegalArgumentException.class, () -> builder.hashKeyHeader(":path"));
    assertThrows(IllegalArgumentException.class, () -> builder.hashKeyHeader("x-key-bin"));
    assertThrows(IllegalArgumentException.class, () -> CallOptions.DEFAULT.withHashArguments(-1));
    assertEquals("user-7" + "2", CallOptions.DEFAULT.withHashArguments(0, 2, 5)
        .hashKey(new Object[] {"user-7", 1, 2}), "the named arguments, joined; those past the end skipped");
  }
}
