package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.pojo.Overloads.NoSuchPet;
import io.triplerpc.transport.netty.pojo.Overloads.Pet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A service with Java overloads over a real socket: one RPC path per name, each wrapper request choosing
 * its overload by its argTypes, each JSON body by its number of arguments, and a clear refusal where
 * neither chooses one.
 */
class OverloadsTest {

  private static TripleServer server;
  private static TripleClient client;
  private static Overloads overloads;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0).addService(Overloads.class, new Overloads.Impl())
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    overloads = client.proxy(Overloads.class);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void eachOverloadIsCalledByItsParameterTypes() throws Exception {
    assertEquals("hello", overloads.greet());
    assertEquals("hello bob", overloads.greet("bob"));
    assertEquals("async hello bob hello bob", overloads.greet("bob", 2));
    assertEquals("async hello ann", overloads.greetAsync("ann", 1).get());
    assertEquals("long 21", overloads.find(21L));
    assertEquals(42L, overloads.find(Long.valueOf(21)));
    assertEquals(-1L, overloads.find((Long) null));
    assertEquals(List.of(new Pet("rex", 3), new Pet("rex junior", 1)), overloads.find(new Pet("rex", 3)));
  }

  @Test
  void anOverloadsDeclaredExceptionArrivesAsItself() {
    NoSuchPet thrown = assertThrows(NoSuchPet.class, () -> overloads.find(new Pet("", 3)));
    assertEquals("no pet without a name", thrown.getMessage());
  }

  @Test
  void argTypesOfNoOverloadAreRefusedNamingTheOverloads() {
    StatusException e = assertThrows(StatusException.class,
        () -> client.proxy(Overloads.WithAnotherOverload.class).find(7));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code(), e::toString);
    assertTrue(e.status().description().contains("no overload takes argument types [int]"), e::toString);
    assertTrue(e.status().description().contains(
        "find(" + Pet.class.getName() + "), find(java.lang.Long), find(long)"), e::toString);
  }

  @Test
  void aJsonBodyChoosesByItsNumberOfArguments() throws Exception {
    assertEquals("200 \"hello\"", post("greet", ""));
    assertEquals("200 \"hello\"", post("greet", "[]"));
    assertEquals("200 \"hello bob\"", post("greet", "\"bob\""));
    assertEquals("200 \"async hello bob hello bob\"", post("greet", "[\"bob\", 2]"));
  }

  @Test
  void aJsonBodyThatFitsSeveralOverloadsIsRefused() throws Exception {
    String answer = post("find", "21");
    assertTrue(answer.startsWith("400 "), answer);
    assertTrue(answer.contains("a body of one argument fits 3 overloads"), answer);
    assertTrue(answer.contains("find(java.lang.Long), find(long)"), answer);
    String wrongCount = post("greet", "[\"bob\", 2, 3]");
    assertTrue(wrongCount.startsWith("400 "), wrongCount);
  }

  /** The status and body of a Connect unary POST of {@code body} to {@code method}. */
  private static String post(String method, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/triple.test.Overloads/" + method))
        .header("content-type", "application/json").timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body().trim();
  }
}
