package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.CallOptions;
import io.triplerpc.GenericService;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.OutOfStock;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Generic calls ({@code $invoke}) across Triple and a real Dubbo 3.3.6, both ways: a Dubbo
 * {@code GenericService} reference calls a Triple server's plain Java service with maps for its POJOs,
 * and Triple's {@link GenericService} calls a Dubbo provider the same way; results come back as maps
 * naming their class.
 */
class DubboGenericCallsTest {

  private static final String[] PLACE = {"java.lang.String", "java.util.List", "boolean"};

  private static Map<String, Object> item(String name, int quantity, String price) {
    return Map.of("name", name, "quantity", quantity, "price", new BigDecimal(price));
  }

  @Test
  void aDubboGenericReferenceCallsATripleServer() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(PlainService.class, new TriplePlainService()).build().start();
    try (DubboProcess dubbo = DubboProcess.consumer("127.0.0.1:" + server.port())) {
      JsonNode placed = dubbo.generic(PlainService.class, "place", PLACE,
          "ada", List.of(item("apple", 2, "1.50"), item("pear", 1, "0.75")), true);
      assertTrue(placed.path("ok").asBoolean(), placed::toString);
      JsonNode order = placed.get("result");
      assertEquals(Order.class.getName(), order.path("class").asText(), placed::toString);
      assertEquals("ada", order.path("customer").asText());
      assertEquals("EXPRESS", order.path("shipping").asText(), "an enum is its name");
      assertEquals(0, new BigDecimal("3.75").compareTo(order.path("total").decimalValue()), placed::toString);
      assertEquals("apple", order.path("items").get(0).path("name").asText());

      JsonNode echoed = dubbo.generic(PlainService.class, "echo", new String[] {"java.lang.String"}, "hi");
      assertEquals("hi", echoed.path("result").asText(), echoed::toString);
      JsonNode byName = dubbo.generic(PlainService.class, "whoami", null);
      assertEquals("default", byName.path("result").asText(), byName::toString);

      JsonNode refused = dubbo.generic(PlainService.class, "place", PLACE,
          "ada", List.of(item("unobtainium", 3, "9")), false);
      assertEquals(OutOfStock.class.getName(), refused.path("exception").asText(), refused::toString);
      assertEquals(3, refused.path("fields").path("missing").asInt(), refused::toString);

      JsonNode unknown = dubbo.generic(PlainService.class, "nope", new String[0]);
      assertEquals("UNIMPLEMENTED", unknown.path("status").asText(), unknown::toString);
    } finally {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void tripleGenericCallsReachADubboProvider() throws Exception {
    try (DubboProcess dubbo = DubboProcess.provider();
        TripleClient client = TripleClient.builder().address("127.0.0.1", dubbo.port()).build()) {
      GenericService plain = client.generic(PlainService.class.getName(),
          CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      Map<?, ?> order = assertInstanceOf(Map.class,
          plain.invoke("place", PLACE, "bob", List.of(item("apple", 2, "1.50")), false));
      assertEquals(Order.class.getName(), order.get("class"));
      assertEquals("bob", order.get("customer"));
      assertEquals("STANDARD", order.get("shipping"));
      assertEquals(0, new BigDecimal("3.00").compareTo((BigDecimal) order.get("total")), order.toString());
      Map<?, ?> first = (Map<?, ?>) ((List<?>) order.get("items")).get(0);
      assertEquals(Item.class.getName(), first.get("class"));

      assertEquals("x", plain.invoke("echo", new String[] {"java.lang.String"}, "x"));
      assertNull(plain.invoke("echo", new String[] {"java.lang.String"}, (Object) null));
      assertEquals("default", plain.invokeAsync("whoami", new String[0]).get());

      // Dubbo's provider turns what a generic call's method threw into its GenericException (class name
      // and message), which reads as the stand-in naming the class.
      RemoteServiceException e = assertThrows(RemoteServiceException.class,
          () -> plain.invoke("place", PLACE, "bob", List.of(item("unobtainium", 4, "1")), false));
      assertEquals(OutOfStock.class.getName(), e.remoteClassName());
      assertEquals("unobtainium: short by 4", e.getMessage());
      assertThrows(StatusException.class, () -> plain.invoke("nope", new String[0]));
    }
  }
}
