package io.triplerpc.serialization.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.model.Address;
import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.model.Color;
import io.triplerpc.serialization.model.Dog;
import io.triplerpc.serialization.model.Order;
import io.triplerpc.serialization.model.OrderRejectedException;
import io.triplerpc.serialization.model.OutOfStockException;
import io.triplerpc.serialization.model.Shipment;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every type the issue names, through both serializations, declared as a service would declare it. */
class ObjectSerializationRoundTripTest {

  private static final ClassLoader LOADER = ObjectSerializationRoundTripTest.class.getClassLoader();

  static Stream<Arguments> cases() {
    List<Object[]> cases = new ArrayList<>();
    // null values
    add(cases, "null String", String.class, null);
    add(cases, "null POJO", Order.class, null);
    add(cases, "null boxed", Integer.class, null);
    add(cases, "null list", new TypeToken<List<Address>>() {}.type(), null);
    // primitives and boxed
    add(cases, "int", int.class, -42);
    add(cases, "long", long.class, Long.MIN_VALUE);
    add(cases, "short", short.class, (short) -7);
    add(cases, "byte", byte.class, (byte) 0x7f);
    add(cases, "float", float.class, 1.25f);
    add(cases, "double", double.class, Math.PI);
    add(cases, "boolean", boolean.class, true);
    add(cases, "char", char.class, '\u00e9');
    add(cases, "Integer", Integer.class, Integer.MAX_VALUE);
    add(cases, "Long", Long.class, 1L << 40);
    add(cases, "Short", Short.class, Short.MIN_VALUE);
    add(cases, "Byte", Byte.class, (byte) -1);
    add(cases, "Float", Float.class, -0.5f);
    add(cases, "Double", Double.class, 1e300);
    add(cases, "Boolean", Boolean.class, false);
    add(cases, "Character", Character.class, 'z');
    add(cases, "String", String.class, "h\u00e9llo \u4e16\u754c \uD83D\uDE00 \"quoted\"\n");
    add(cases, "empty String", String.class, "");
    // numbers
    add(cases, "BigDecimal keeps its scale", BigDecimal.class, new BigDecimal("-12345678901234567890.12345000"));
    add(cases, "BigDecimal with exponent", BigDecimal.class, new BigDecimal("1E+400"));
    add(cases, "BigInteger", BigInteger.class, BigInteger.TWO.pow(200).negate());
    // java.time
    add(cases, "Instant", Instant.class, Instant.ofEpochSecond(1_700_000_000L, 123_456_789));
    add(cases, "LocalDate", LocalDate.class, LocalDate.of(2024, 2, 29));
    add(cases, "LocalDateTime", LocalDateTime.class, LocalDateTime.of(2024, 3, 1, 23, 59, 59, 999_999_999));
    add(cases, "LocalTime", LocalTime.class, LocalTime.of(7, 8, 9, 10));
    add(cases, "Duration", Duration.class, Duration.ofDays(3).plusNanos(5));
    add(cases, "ZonedDateTime keeps its region", ZonedDateTime.class,
        ZonedDateTime.of(2024, 10, 27, 2, 30, 0, 0, ZoneId.of("Europe/Paris")));
    add(cases, "OffsetDateTime", OffsetDateTime.class,
        OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(-5)));
    // enums and records
    add(cases, "enum", Color.class, Color.GREEN);
    add(cases, "enum constant with a body", Color.class, Color.BLUE);
    add(cases, "record", Address.class, new Address("1 Main St", "Springfield", 12345));
    add(cases, "record with null component", Address.class, new Address(null, "Nowhere", 0));
    add(cases, "record of records, list, Optional", Shipment.class, new Shipment(new Address("a", "b", 1),
        List.of(new Address("c", "d", 2)), Color.BLUE, Optional.of(Instant.ofEpochMilli(5))));
    add(cases, "record with empty Optional", Shipment.class,
        new Shipment(new Address("a", "b", 1), List.of(), Color.RED, Optional.empty()));
    // POJOs and inheritance
    add(cases, "POJO with every field type", Order.class, Order.sample(7));
    add(cases, "POJO with null fields", Order.class, Order.empty());
    add(cases, "POJO declared as itself", Animal.class, new Animal("Tom", 4, null));
    add(cases, "subclass declared as its superclass", Animal.class, new Dog("Rex", 3, "collie", List.of("sit")));
    // collections with generics
    add(cases, "List<POJO> with subclasses", new TypeToken<List<Animal>>() {}.type(),
        List.of(new Animal("Tom", 4, 2), new Dog("Rex", 3, "collie", List.of())));
    add(cases, "List<Order>", new TypeToken<List<Order>>() {}.type(), List.of(Order.sample(1), Order.sample(2)));
    add(cases, "Map<String, List<Record>>", new TypeToken<Map<String, List<Address>>>() {}.type(),
        new LinkedHashMap<>(Map.of("home", List.of(new Address("x", "y", 1)), "work", List.of())));
    add(cases, "Set<enum>", new TypeToken<Set<Color>>() {}.type(), EnumSet.of(Color.RED, Color.BLUE));
    add(cases, "Map<enum, Integer>", new TypeToken<Map<Color, Integer>>() {}.type(),
        new TreeMap<>(Map.of(Color.RED, 1, Color.GREEN, 2)));
    add(cases, "List<Short> keeps Short", new TypeToken<List<Short>>() {}.type(), List.of((short) 1, (short) -2));
    add(cases, "Map<Long, Byte> keeps Long and Byte", new TypeToken<Map<Long, Byte>>() {}.type(),
        Map.of(1L, (byte) 2));
    add(cases, "List with null element", new TypeToken<List<String>>() {}.type(), Arrays.asList("a", null, "c"));
    add(cases, "empty Map", new TypeToken<Map<String, Integer>>() {}.type(), Map.of());
    // Optional
    add(cases, "Optional present", new TypeToken<Optional<String>>() {}.type(), Optional.of("here"));
    add(cases, "Optional empty", new TypeToken<Optional<String>>() {}.type(), Optional.empty());
    add(cases, "Optional<record>", new TypeToken<Optional<Address>>() {}.type(),
        Optional.of(new Address("a", "b", 1)));
    add(cases, "Optional<subclass>", new TypeToken<Optional<Animal>>() {}.type(),
        Optional.of(new Dog("Rex", 1, "pug", List.of())));
    add(cases, "Optional<java.time>", new TypeToken<Optional<LocalDate>>() {}.type(),
        Optional.of(LocalDate.of(2000, 1, 1)));
    // arrays
    add(cases, "int[]", int[].class, new int[] {1, -2, Integer.MAX_VALUE});
    add(cases, "long[][]", long[][].class, new long[][] {{1L}, {2L, 3L}, {}});
    add(cases, "byte[]", byte[].class, new byte[] {0, -1, 127, -128});
    add(cases, "String[]", String[].class, new String[] {"a", null, ""});
    add(cases, "record[]", Address[].class, new Address[] {new Address("a", "b", 1), null});
    add(cases, "POJO[] with subclasses", Animal[].class, new Animal[] {new Dog("Rex", 2, "pug", List.of())});
    List<Arguments> arguments = new ArrayList<>();
    for (ObjectSerialization serialization : ObjectSerializations.installed()) {
      for (Object[] c : cases) {
        arguments.add(Arguments.of(serialization, c[0], c[1], c[2]));
      }
    }
    return arguments.stream();
  }

  private static void add(List<Object[]> cases, String name, Type type, Object value) {
    cases.add(new Object[] {name, type, value});
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void valuesRoundTripAsDeclared(ObjectSerialization serialization, String name, Type type, Object value)
      throws IOException {
    ObjectCodec codec = serialization.codecFor(type, LOADER);
    Object read = roundTrip(codec, value);
    if (value == null) {
      assertNull(read);
    } else if (value.getClass().isArray()) {
      assertEquals(value.getClass(), read.getClass());
      assertTrue(Arrays.deepEquals(new Object[] {value}, new Object[] {read}),
          () -> Arrays.deepToString(new Object[] {value}) + " became " + Arrays.deepToString(new Object[] {read}));
    } else {
      assertEquals(value, read);
      if (!(value instanceof List || value instanceof Map || value instanceof Set)) {
        assertEquals(value.getClass(), read.getClass(), "the class survives");
      }
      if (value instanceof BigDecimal) {
        assertEquals(((BigDecimal) value).scale(), ((BigDecimal) read).scale());
      }
      if (value instanceof List) {
        for (int i = 0; i < ((List<?>) value).size(); i++) {
          Object element = ((List<?>) value).get(i);
          if (element != null) {
            assertSame(element.getClass(), ((List<?>) read).get(i).getClass(), "element classes survive");
          }
        }
      }
      if (value instanceof Map) {
        Map.Entry<?, ?> entry = ((Map<?, ?>) value).entrySet().stream().findFirst().orElse(null);
        if (entry != null && !(entry.getValue() instanceof List)) {
          Object readValue = ((Map<?, ?>) read).get(entry.getKey());
          assertSame(entry.getValue().getClass(), readValue.getClass(), "key and value classes survive");
        }
      }
    }
  }

  static Stream<ObjectSerialization> serializations() {
    return ObjectSerializations.installed().stream();
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aZonedDateTimeInTheRepeatedHourOfADaylightSavingChange(ObjectSerialization serialization) throws IOException {
    ZonedDateTime first = ZonedDateTime.of(2024, 10, 27, 2, 30, 0, 0, ZoneId.of("Europe/Paris"));
    ZonedDateTime second = first.withLaterOffsetAtOverlap();
    ObjectCodec codec = serialization.codecFor(ZonedDateTime.class, LOADER);
    assertEquals(first, roundTrip(codec, first));
    if (serialization.name().equals(ObjectSerializations.FASTJSON2)) {
      // JSONB writes the local date-time and the zone, no offset, as Dubbo does: the later of two equal local
      // times reads as the earlier one, an hour off.
      assertEquals(first, roundTrip(codec, second));
    } else {
      assertEquals(second, roundTrip(codec, second));
    }
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aNullDeclaredOptionalReadsAsEmpty(ObjectSerialization serialization) throws IOException {
    ObjectCodec codec = serialization.codecFor(new TypeToken<Optional<String>>() {}.type(), LOADER);
    assertEquals(Optional.empty(), roundTrip(codec, null));
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void checkedExceptionsKeepClassMessageFieldsAndCauseChain(ObjectSerialization serialization) throws IOException {
    IllegalStateException root = new IllegalStateException("warehouse closed");
    OutOfStockException thrown = new OutOfStockException("no more apples", new BigDecimal("2.50"),
        new UncheckedIOException("supplier down", new IOException("connection reset", root)));
    thrown.addSuppressed(new IllegalArgumentException("suppressed one"));
    Object read = roundTrip(serialization.codecFor(Throwable.class, LOADER, throwing(OutOfStockException.class)),
        thrown);

    OutOfStockException copy = assertInstanceOf(OutOfStockException.class, read);
    assertEquals("no more apples", copy.getMessage());
    assertEquals(new BigDecimal("2.50"), copy.missing());
    Throwable cause = copy.getCause();
    if (serialization.name().equals(ObjectSerializations.JACKSON)) {
      // Jackson cannot construct UncheckedIOException (no no-argument or String constructor).
      RemoteServiceException standIn = assertInstanceOf(RemoteServiceException.class, cause);
      assertEquals(UncheckedIOException.class.getName(), standIn.remoteClassName());
      assertSameFrames(thrown.getCause().getStackTrace(), standIn.getStackTrace());
    } else {
      assertInstanceOf(UncheckedIOException.class, cause);
    }
    assertEquals("supplier down", cause.getMessage());
    assertInstanceOf(IOException.class, cause.getCause());
    assertEquals("connection reset", cause.getCause().getMessage());
    assertInstanceOf(IllegalStateException.class, cause.getCause().getCause());
    assertEquals("warehouse closed", cause.getCause().getCause().getMessage());
    assertNull(cause.getCause().getCause().getCause());
    assertEquals(1, copy.getSuppressed().length);
    assertEquals("suppressed one", copy.getSuppressed()[0].getMessage());
    assertSameFrames(thrown.getStackTrace(), copy.getStackTrace());
  }

  @org.junit.jupiter.api.Test
  void jsonKeepsTheClassAndTheMessageOfAnExceptionWithoutAStringConstructor() throws IOException {
    ObjectCodec codec = ObjectSerializations.named("jackson")
        .codecFor(Throwable.class, LOADER, throwing(NoMessageConstructorException.class));
    Object read = roundTrip(codec, new NoMessageConstructorException(7));
    NoMessageConstructorException copy = assertInstanceOf(NoMessageConstructorException.class, read);
    assertEquals(7, copy.code);
    // Jackson builds it with the no-argument constructor; the message is set afterwards.
    assertEquals("code 7", copy.getMessage());
  }

  /** An exception whose only constructors take more than a message. */
  static class NoMessageConstructorException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private int code;

    NoMessageConstructorException() {}

    NoMessageConstructorException(int code) {
      super("code " + code);
      this.code = code;
    }
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void runtimeExceptionsKeepClassAndMessage(ObjectSerialization serialization) throws IOException {
    Object read = roundTrip(serialization.codecFor(Exception.class, LOADER, throwing(OrderRejectedException.class)),
        new OrderRejectedException("too late"));
    OrderRejectedException copy = assertInstanceOf(OrderRejectedException.class, read);
    assertEquals("too late", copy.getMessage());
    assertNull(copy.getCause());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void jdkExceptionsWithoutMessageRoundTrip(ObjectSerialization serialization) throws IOException {
    Object read = roundTrip(serialization.codecFor(Throwable.class, LOADER), new UnsupportedOperationException());
    UnsupportedOperationException copy = assertInstanceOf(UnsupportedOperationException.class, read);
    assertNull(copy.getMessage());
  }

  /** What a service that declares it throws {@code exception} reads: a thrown value's class must be allowed. */
  static AllowedClasses throwing(Class<? extends Throwable> exception) {
    return AllowedClasses.forTypes("a service throwing " + exception.getSimpleName(), List.of(exception), LOADER,
        DeserializationAllowList.create());
  }

  /** Frames compared by what a stack trace prints (JSON does not carry class loader and module names). */
  static void assertSameFrames(StackTraceElement[] expected, StackTraceElement[] actual) {
    assertEquals(expected.length, actual.length, "the service's stack trace travels");
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i].getClassName(), actual[i].getClassName());
      assertEquals(expected[i].getMethodName(), actual[i].getMethodName());
      assertEquals(expected[i].getFileName(), actual[i].getFileName());
      assertEquals(expected[i].getLineNumber(), actual[i].getLineNumber());
    }
  }

  static Object roundTrip(ObjectCodec codec, Object value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(value, out);
    return codec.read(new ByteArrayInputStream(out.toByteArray()));
  }
}
