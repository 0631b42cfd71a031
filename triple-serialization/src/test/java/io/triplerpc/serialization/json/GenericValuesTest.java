package io.triplerpc.serialization.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.DeserializationAllowList;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The generic form of Dubbo's generic calls, both ways, and the class checks on the way in. */
class GenericValuesTest {

  enum Size { SMALL, LARGE }

  public record Item(String name, Size size, BigDecimal price, LocalDate since, List<String> tags) {}

  public static class Node {
    public String label;
    public Node next;
    public int[] weights;
  }

  public static class Shape {
    public String name;
  }

  public static class Circle extends Shape {
    public double radius;
  }

  public record Drawing(Shape shape, Optional<String> title) {}

  private static AllowedClasses allowed(Class<?>... declared) {
    return AllowedClasses.forTypes("test", List.of(declared), GenericValuesTest.class.getClassLoader(),
        DeserializationAllowList.create());
  }

  @Test
  void objectsBecomeMapsNamingTheirClassAndScalarsStay() throws Exception {
    Item item = new Item("pen", Size.SMALL, new BigDecimal("1.50"), LocalDate.of(2024, 1, 2), List.of("a"));
    Map<?, ?> generic = (Map<?, ?>) GenericValues.generalize(item);
    assertEquals(Item.class.getName(), generic.get("class"));
    assertEquals("SMALL", generic.get("size"));
    assertEquals(new BigDecimal("1.50"), generic.get("price"));
    assertEquals(LocalDate.of(2024, 1, 2), generic.get("since"));
    assertEquals(List.of("a"), generic.get("tags"));
    assertEquals(item, GenericValues.realize(generic, Item.class, getClass().getClassLoader(), allowed(Item.class)));
  }

  @Test
  void cyclesEndAndArraysBecomeLists() {
    Node node = new Node();
    node.label = "loop";
    node.next = node;
    node.weights = new int[] {1, 2};
    Map<?, ?> generic = (Map<?, ?>) GenericValues.generalize(node);
    assertSame(generic, generic.get("next"));
    assertEquals(List.of(1, 2), generic.get("weights"));
    assertEquals(List.of(1, "LARGE"), GenericValues.generalize(new Object[] {1, Size.LARGE}));
  }

  @Test
  void aClassEntryPicksAnAllowedSubclassAndNothingElse() throws Exception {
    Map<String, Object> circle = new LinkedHashMap<>();
    circle.put("class", Circle.class.getName());
    circle.put("name", "c");
    circle.put("radius", 2.5);
    Drawing drawing = (Drawing) GenericValues.realize(Map.of("shape", circle, "title", "t"), Drawing.class,
        getClass().getClassLoader(), allowed(Drawing.class, Circle.class));
    assertEquals(2.5, ((Circle) drawing.shape()).radius);
    assertEquals(Optional.of("t"), drawing.title());

    Map<String, Object> gadget = new LinkedHashMap<>(circle);
    gadget.put("class", "java.lang.ProcessBuilder");
    MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> GenericValues.realize(
        Map.of("shape", gadget), Drawing.class, getClass().getClassLoader(), allowed(Drawing.class, Circle.class)));
    assertTrue(e.getMessage().contains("java.lang.ProcessBuilder"), e.getMessage());
  }

  @Test
  void aValueThatDoesNotFitIsMalformed() {
    List<Object> notAnItem = new ArrayList<>(List.of("x"));
    assertThrows(MalformedMessageException.class,
        () -> GenericValues.realize(notAnItem, Item.class, getClass().getClassLoader(), allowed(Item.class)));
    assertThrows(MalformedMessageException.class, () -> GenericValues.realize(
        Map.of("size", "HUGE"), Item.class, getClass().getClassLoader(), allowed(Item.class)));
  }
}
