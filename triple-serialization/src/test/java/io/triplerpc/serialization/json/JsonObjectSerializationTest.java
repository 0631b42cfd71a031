package io.triplerpc.serialization.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.model.Address;
import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.model.Dog;
import io.triplerpc.serialization.model.Shipment;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.object.TypeToken;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JsonObjectSerializationTest {

  private static final ClassLoader LOADER = JsonObjectSerializationTest.class.getClassLoader();

  private final JsonObjectSerialization json = new JsonObjectSerialization();

  private String write(Type type, Object value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    json.codecFor(type, LOADER).write(value, out);
    return out.toString(StandardCharsets.UTF_8);
  }

  private Object read(Type type, String text) throws IOException {
    return json.codecFor(type, LOADER).read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void itIsSelectedAndNamedAsJackson() {
    assertSame(JsonObjectSerialization.class, ObjectSerializations.named("jackson").getClass());
    assertEquals("jackson", json.name());
    assertEquals("jackson", json.wireName());
    assertTrue(json.readsWireName("jackson"));
    assertFalse(json.readsWireName("fastjson2"), "Dubbo's fastjson2 writes JSONB, a binary format");
  }

  @Test
  void javaTimeValuesAreIsoStringsThatKeepTheirZone() throws IOException {
    assertEquals("\"2023-11-14T22:13:20.123456789Z\"",
        write(Instant.class, Instant.ofEpochSecond(1_700_000_000L, 123_456_789)));
    assertEquals("\"PT1H30M\"", write(Duration.class, Duration.ofMinutes(90)));
    ZonedDateTime paris = ZonedDateTime.of(2024, 7, 1, 9, 0, 0, 0, ZoneId.of("Europe/Paris"));
    assertEquals("\"2024-07-01T09:00:00+02:00[Europe/Paris]\"", write(ZonedDateTime.class, paris));
    assertEquals(paris, read(ZonedDateTime.class, "\"2024-07-01T09:00:00+02:00[Europe/Paris]\""));
  }

  @Test
  void numbersOptionalsAndRecordsArePlainJson() throws IOException {
    assertEquals("1.50", write(BigDecimal.class, new BigDecimal("1.50")));
    assertEquals("\"x\"", write(new TypeToken<Optional<String>>() {}.type(), Optional.of("x")));
    assertEquals("null", write(new TypeToken<Optional<String>>() {}.type(), Optional.empty()));
    assertEquals("{\"street\":\"s\",\"city\":\"c\",\"zip\":1}", write(Address.class, new Address("s", "c", 1)),
        "a record carries no class: it cannot have subclasses");
  }

  @Test
  void aSubclassDeclaredAsItsSuperclassCarriesItsClass() throws IOException {
    String text = write(Animal.class, new Dog("Rex", 2, "pug", List.of("sit")));
    assertTrue(text.startsWith("{\"@class\":\"" + Dog.class.getName() + "\""), text);
    assertTrue(text.contains("\"breed\":\"pug\""), text);
    assertEquals(new Dog("Rex", 2, "pug", List.of("sit")), read(Animal.class, text));
  }

  @Test
  void handWrittenJsonWithoutAClassReadsAsTheDeclaredType() throws IOException {
    assertEquals(new Animal("Tom", 4, null), read(Animal.class, "{\"name\":\"Tom\",\"legs\":4}"));
    assertEquals(List.of(new Animal("Tom", 0, 3)), read(new TypeToken<List<Animal>>() {}.type(),
        "[{\"name\":\"Tom\",\"age\":3,\"unknown\":true}]"));
  }

  @Test
  void readsWhatDubbosJacksonSerializationWrites() throws IOException {
    // dubbo-spi-extensions' JacksonObjectOutput: default Jackson (dates as numeric timestamps), nulls left
    // out, one value per line.
    String dubbo = "{\"from\":{\"street\":\"s\",\"city\":\"c\",\"zip\":1},\"stops\":[],\"label\":\"RED\","
        + "\"eta\":1700000000.123456789}\n";
    Shipment read = (Shipment) read(Shipment.class, dubbo);
    assertEquals(new Address("s", "c", 1), read.from());
    assertEquals(Optional.of(Instant.ofEpochSecond(1_700_000_000L, 123_456_789)), read.eta());
  }

  @Test
  void aValueDeclaredObjectReadsAsPlainJsonValues() throws IOException {
    Object read = read(Object.class, write(Object.class, new Dog("Rex", 1, null, null)));
    Map<?, ?> map = assertInstanceOf(Map.class, read, "no class is constructed from a name Object bounds");
    assertEquals("Rex", map.get("name"));
  }

  @Test
  void malformedJsonIsRefused() {
    for (String text : new String[] {"", "{", "{\"name\":", "[1,2", "nope", "{} {}", "\"a\" 1"}) {
      IOException e = assertThrows(IOException.class, () -> read(Animal.class, text), text);
      assertTrue(e.getMessage().startsWith("Malformed JSON " + Animal.class.getName()), e.getMessage());
    }
    assertThrows(IOException.class, () -> read(int.class, "\"twelve\""));
    assertThrows(IOException.class, () -> read(Instant.class, "\"yesterday\""));
  }

  @Test
  void codecsAreBuiltPerTypeAndShareTheMapperOfTheirLoader() {
    ObjectCodec one = json.codecFor(Animal.class, LOADER);
    ObjectCodec two = json.codecFor(Animal.class, LOADER);
    assertEquals(Animal.class, one.type());
    assertTrue(one.toString().contains(Animal.class.getName()));
    assertFalse(one == two);
  }
}
