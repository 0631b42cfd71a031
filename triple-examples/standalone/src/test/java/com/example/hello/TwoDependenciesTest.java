package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * This project has the README's two dependencies, triple-core and triple-transport-netty, and nothing
 * else of Triple's: fastjson2 is not on its class path, and a plain Java interface (the README's
 * {@code Orders}) is served and called with hessian2, the default, and called by curl's JSON (Jackson).
 */
class TwoDependenciesTest {

  /** The README's plain Java interface, in hessian2 (the default). */
  @TripleService(name = "shop.Orders")
  public interface Orders {
    Order place(String customer, List<Item> items) throws OutOfStock;

    CompletableFuture<Optional<Order>> find(long id);
  }

  /** The same interface in fastjson2, which needs io.triplerpc:triple-serialization-fastjson2. */
  @TripleService(name = "shop.OrdersInFastjson2", serialization = "fastjson2")
  public interface OrdersInFastjson2 extends Orders {}

  public record Item(String sku, int quantity) {}

  public record Order(long id, String customer, List<Item> items) {}

  public static class OutOfStock extends Exception {
    public String sku;

    public OutOfStock() {}

    public OutOfStock(String sku) {
      super("out of stock: " + sku);
      this.sku = sku;
    }
  }

  static final class OrdersImpl implements OrdersInFastjson2 {
    @Override
    public Order place(String customer, List<Item> items) throws OutOfStock {
      for (Item item : items) {
        if (item.quantity() > 10) {
          throw new OutOfStock(item.sku());
        }
      }
      return new Order(7, customer, items);
    }

    @Override
    public CompletableFuture<Optional<Order>> find(long id) {
      return CompletableFuture.completedFuture(id == 7 ? Optional.of(new Order(7, "ada", List.of())) : Optional.empty());
    }
  }

  @Test
  void fastjson2IsNotOnTheClassPath() {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("com.alibaba.fastjson2.JSON"));
    List<String> jars = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(path -> path.substring(path.lastIndexOf(File.separatorChar) + 1)).toList();
    assertTrue(jars.stream().noneMatch(jar -> jar.contains("fastjson")), jars.toString());
    assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("hessian-lite-")), "hessian2 is in the default set: " + jars);
    assertTrue(jars.stream().anyMatch(jar -> jar.startsWith("jackson-databind-")), "so is Jackson: " + jars);
  }

  @Test
  void theReadmesPlainJavaInterfaceTravelsInHessian2() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Orders.class, new OrdersImpl()).build().start();
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      Orders orders = client.proxy(Orders.class);

      assertEquals(new Order(7, "ada", List.of(new Item("a1", 2))), orders.place("ada", List.of(new Item("a1", 2))));
      assertEquals(Optional.of(new Order(7, "ada", List.of())), orders.find(7).get(10, TimeUnit.SECONDS));
      OutOfStock thrown = assertThrows(OutOfStock.class, () -> orders.place("ada", List.of(new Item("b2", 11))));
      assertEquals("b2", thrown.sku);

      // curl's JSON: a Connect unary call, its parameters as a JSON array.
      HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/shop.Orders/place"))
              .header("content-type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("[\"ada\", [{\"sku\":\"a1\",\"quantity\":2}]]"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, response.statusCode(), response.body());
      assertTrue(response.body().contains("\"customer\":\"ada\"") && response.body().contains("\"sku\":\"a1\""),
          response.body());
    } finally {
      server.shutdown();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "the server stopped");
    }
  }

  @Test
  void aServiceInFastjson2FailsToBuildNamingTheArtifactToAdd() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> TripleServer.builder().port(0).addService(OrdersInFastjson2.class, new OrdersImpl()).build());
    assertTrue(e.getMessage().contains("io.triplerpc:triple-serialization-fastjson2"), e.getMessage());
  }
}
