package io.triplerpc.serialization.wrapper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.model.Address;
import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.model.AnimalRepository;
import io.triplerpc.serialization.model.Color;
import io.triplerpc.serialization.model.Dog;
import io.triplerpc.serialization.model.Order;
import io.triplerpc.serialization.model.OrderRejectedException;
import io.triplerpc.serialization.model.OutOfStockException;
import io.triplerpc.serialization.model.Repository;
import io.triplerpc.serialization.model.Shipment;
import io.triplerpc.serialization.model.ShopService;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WrapperCodecsTest {

  static Stream<ObjectSerialization> serializations() {
    return ObjectSerializations.installed().stream();
  }

  static Method method(Class<?> type, String name) {
    return Arrays.stream(type.getMethods()).filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
  }

  static WrapperCodecs shop(String name, ObjectSerialization serialization) {
    return WrapperCodecs.forMethod(method(ShopService.class, name), serialization);
  }

  static byte[] encode(MessageCodec<Object[]> codec, Object... arguments) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(arguments, out);
    return out.toByteArray();
  }

  static <T> byte[] encodeValue(MessageCodec<T> codec, T value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(value, out);
    return out.toByteArray();
  }

  /** Reads {@code bytes} through the stream and both kinds of buffer, and checks all three agree. */
  static <T> T decode(MessageCodec<T> codec, byte[] bytes) throws IOException {
    T fromStream = codec.read(new ByteArrayInputStream(bytes));
    T fromHeap = codec.read(ByteBuffer.wrap(bytes));
    T fromDirect = codec.read(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip());
    for (T other : Arrays.asList(fromHeap, fromDirect)) {
      if (fromStream instanceof Throwable) {
        assertEquals(fromStream.getClass(), other.getClass());
        assertEquals(((Throwable) fromStream).getMessage(), ((Throwable) other).getMessage());
      } else {
        assertTrue(Arrays.deepEquals(new Object[] {fromStream}, new Object[] {other}));
      }
    }
    return fromStream;
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void multiArgumentCallsRoundTripWithSubclassesOptionalsAndNulls(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("place", serialization);
    Object[] arguments = {Order.sample(3), 5, null, new Dog("Rex", 2, "pug", List.of("sit")),
        Optional.of(LocalDate.of(2024, 5, 6))};
    Object[] read = decode(codecs.arguments(), encode(codecs.arguments(), arguments));
    assertArrayEquals(arguments, read);
    assertEquals(Dog.class, read[3].getClass(), "a subclass declared as its superclass stays itself");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void genericArgumentsAndResultsKeepTheirElementTypes(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("addressBook", serialization);
    Map<String, List<Address>> book = Map.of("home", List.of(new Address("1 Main", "Springfield", 1)));
    Object[] arguments = {book, List.of(Color.BLUE, Color.RED)};
    Object[] read = decode(codecs.arguments(), encode(codecs.arguments(), arguments));
    assertEquals(book, read[0]);
    assertEquals(Address.class, ((Map<?, ?>) read[0]).get("home") instanceof List<?> list ? list.get(0).getClass() : null);
    assertEquals(List.of(Color.BLUE, Color.RED), read[1]);
    assertEquals(book, decode(codecs.result(), encodeValue(codecs.result(), book)));
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void primitivesAndBoxedArgumentsRoundTrip(ObjectSerialization serialization) throws Exception {
    WrapperCodecs primitives = shop("count", serialization);
    Object[] values = {Integer.MIN_VALUE, Long.MAX_VALUE, -0.25d, true, '\u4e2d', (short) 300, (byte) -128, 3.5f};
    assertArrayEquals(values, decode(primitives.arguments(), encode(primitives.arguments(), values)));
    assertEquals(42, decode(primitives.result(), encodeValue(primitives.result(), 42)));

    WrapperCodecs boxed = shop("boxed", serialization);
    Object[] nulls = new Object[8];
    assertArrayEquals(nulls, decode(boxed.arguments(), encode(boxed.arguments(), nulls)));
    assertArrayEquals(values, decode(boxed.arguments(), encode(boxed.arguments(), values)));
    assertNull(decode(boxed.result(), encodeValue(boxed.result(), null)));
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void arraysBigNumbersAndFutureResultsRoundTrip(ObjectSerialization serialization) throws Exception {
    WrapperCodecs names = shop("names", serialization);
    Object[] arrays = {new String[] {"a", null}, new int[] {1, 2}, new Address[] {new Address("s", "c", 9)},
        new byte[] {1, -1}};
    assertTrue(Arrays.deepEquals(arrays, decode(names.arguments(), encode(names.arguments(), arrays))));
    assertArrayEquals(new String[] {"x"}, (String[]) decode(names.result(), encodeValue(names.result(), new String[] {"x"})));

    WrapperCodecs total = shop("total", serialization);
    Object[] numbers = {new BigDecimal("0.10"), BigInteger.TEN.pow(30)};
    assertArrayEquals(numbers, decode(total.arguments(), encode(total.arguments(), numbers)));

    WrapperCodecs ship = shop("ship", serialization);
    Shipment shipment = new Shipment(new Address("a", "b", 1), List.of(), Color.GREEN, Optional.of(Instant.EPOCH));
    assertEquals(shipment, decode(ship.result(), encodeValue(ship.result(), shipment)),
        "a CompletableFuture<R> method's result is an R");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void zeroArgumentCallsCarryNoArguments(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("list", serialization);
    byte[] bytes = encode(codecs.arguments());
    assertArrayEquals(bytes, encodeValue(codecs.arguments(), null), "null and no arguments are the same");
    TripleRequestWrapper wrapper = TripleRequestWrapper.parseFrom(bytes);
    assertEquals(serialization.wireName(), wrapper.getSerializeType());
    assertEquals(0, wrapper.getArgsCount());
    assertEquals(0, wrapper.getArgTypesCount());
    assertEquals(0, decode(codecs.arguments(), bytes).length);
    List<Order> orders = List.of(Order.sample(1), Order.empty());
    assertEquals(orders, decode(codecs.result(), encodeValue(codecs.result(), orders)));
    assertNull(decode(codecs.result(), encodeValue(codecs.result(), null)), "a null result");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void voidResultsAreANullValue(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("cancel", serialization);
    assertArrayEquals(new Object[] {7L}, decode(codecs.arguments(), encode(codecs.arguments(), 7L)));
    byte[] bytes = encodeValue(codecs.result(), null);
    TripleResponseWrapper wrapper = TripleResponseWrapper.parseFrom(bytes);
    assertEquals("void", wrapper.getType());
    assertFalse(wrapper.getData().isEmpty(), "a serialized null, as Dubbo writes for void");
    assertNull(decode(codecs.result(), bytes));
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void checkedAndRuntimeExceptionsTravelAsResponses(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("adopt", serialization);
    OutOfStockException checked = new OutOfStockException("no dogs", BigDecimal.ONE, new IllegalStateException("closed"));
    Throwable read = decode(codecs.exception(), encodeValue(codecs.exception(), checked));
    OutOfStockException copy = assertInstanceOf(OutOfStockException.class, read);
    assertEquals("no dogs", copy.getMessage());
    assertEquals(BigDecimal.ONE, copy.missing());
    assertInstanceOf(IllegalStateException.class, copy.getCause());
    assertEquals("closed", copy.getCause().getMessage());

    Throwable runtime = decode(codecs.exception(), encodeValue(codecs.exception(), new OrderRejectedException("no")));
    assertEquals("no", assertInstanceOf(OrderRejectedException.class, runtime).getMessage());

    Throwable undeclared = decode(codecs.exception(), encodeValue(codecs.exception(), new ArithmeticException("/0")));
    assertEquals("/0", assertInstanceOf(ArithmeticException.class, undeclared).getMessage());

    TripleResponseWrapper wrapper = TripleResponseWrapper.parseFrom(encodeValue(codecs.exception(), checked));
    assertEquals(Animal.class.getName(), wrapper.getType(), "Dubbo names the declared result type here too");
  }

  @Test
  void declaresTellsTheExceptionsOfTheThrowsClause() {
    WrapperCodecs adopt = shop("adopt", ObjectSerializations.defaultSerialization());
    assertTrue(adopt.declares(new OutOfStockException()));
    assertTrue(adopt.declares(new OrderRejectedException("declared although unchecked")));
    assertFalse(adopt.declares(new IllegalStateException()));
    assertFalse(shop("list", ObjectSerializations.defaultSerialization()).declares(new OutOfStockException()));
  }

  @Test
  void exceptionCodesOtherThanZeroMarkAnException() {
    assertTrue(WrapperCodecs.isExceptionCode("3"));
    assertTrue(WrapperCodecs.isExceptionCode(String.valueOf(WrapperCodecs.BUSINESS_EXCEPTION_CODE)));
    assertTrue(WrapperCodecs.isExceptionCode("13"));
    assertFalse(WrapperCodecs.isExceptionCode("0"));
    assertFalse(WrapperCodecs.isExceptionCode(""));
    assertFalse(WrapperCodecs.isExceptionCode(null));
    assertEquals("tri-exception-code", WrapperCodecs.EXCEPTION_CODE_HEADER);
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void typeVariablesOfAGenericServiceResolveAgainstTheService(ObjectSerialization serialization) throws Exception {
    Method find = method(Repository.class, "find");
    WrapperCodecs codecs = WrapperCodecs.forMethod(AnimalRepository.class, find, serialization);
    Optional<Animal> dog = Optional.of(new Dog("Rex", 1, "pug", List.of()));
    assertEquals(dog, decode(codecs.result(), encodeValue(codecs.result(), dog)));

    WrapperCodecs findAll = WrapperCodecs.forMethod(AnimalRepository.class, method(Repository.class, "findAll"),
        serialization);
    Map<String, List<Animal>> byOwner = Map.of("ann", List.of(new Animal("Tom", 4, 1), new Dog("Rex", 2, "x", null)));
    assertEquals(byOwner, decode(findAll.arguments(), encode(findAll.arguments(), byOwner))[0]);
    TripleRequestWrapper wrapper = TripleRequestWrapper.parseFrom(encode(findAll.arguments(), byOwner));
    assertEquals(List.of("java.util.Map"), wrapper.getArgTypesList());

    WrapperCodecs echo = WrapperCodecs.forMethod(AnimalRepository.class, method(Repository.class, "echo"),
        serialization);
    assertEquals("text", decode(echo.result(), encodeValue(echo.result(), "text")), "<R> R becomes Object");
  }

  @Test
  void aMethodOfAnotherInterfaceIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WrapperCodecs.forMethod(
        ShopService.class, method(Repository.class, "find"), ObjectSerializations.defaultSerialization()));
    assertTrue(e.getMessage().contains(ShopService.class.getName()), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void theRequestIsDubbosTripleRequestWrapper(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("names", serialization);
    Object[] arguments = {new String[] {"a"}, new int[] {1}, new Address[0], new byte[] {2}};
    byte[] bytes = encode(codecs.arguments(), arguments);
    TripleRequestWrapper wrapper = TripleRequestWrapper.parseFrom(bytes);
    assertEquals(serialization.wireName(), wrapper.getSerializeType());
    assertEquals(List.of("[Ljava.lang.String;", "[I", "[L" + Address.class.getName() + ";", "[B"),
        wrapper.getArgTypesList(), "argTypes are Class.getName(), as Dubbo's compatible parameter signatures");
    assertEquals(4, wrapper.getArgsCount());
    // Each argument is serialized on its own, and the whole is what protobuf itself writes for the message.
    TripleRequestWrapper.Builder expected = TripleRequestWrapper.newBuilder().setSerializeType(serialization.wireName());
    for (int i = 0; i < arguments.length; i++) {
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      serialization.codecFor(method(ShopService.class, "names").getGenericParameterTypes()[i],
          getClass().getClassLoader()).write(arguments[i], one);
      expected.addArgs(ByteString.copyFrom(one.toByteArray()));
    }
    expected.addAllArgTypes(wrapper.getArgTypesList());
    assertArrayEquals(expected.build().toByteArray(), bytes);
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void theResponseIsDubbosTripleResponseWrapper(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] bytes = encodeValue(codecs.result(), new BigDecimal("1.50"));
    TripleResponseWrapper wrapper = TripleResponseWrapper.parseFrom(bytes);
    assertEquals(serialization.wireName(), wrapper.getSerializeType());
    assertEquals("java.math.BigDecimal", wrapper.getType());
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    serialization.codecFor(BigDecimal.class, getClass().getClassLoader()).write(new BigDecimal("1.50"), data);
    assertArrayEquals(TripleResponseWrapper.newBuilder().setSerializeType(serialization.wireName())
        .setData(ByteString.copyFrom(data.toByteArray())).setType("java.math.BigDecimal").build().toByteArray(), bytes);
  }

  @Test
  void hessianReadsBothOfDubbosNames() throws Exception {
    WrapperCodecs codecs = shop("total", ObjectSerializations.named("hessian2"));
    assertEquals("hessian4", codecs.serialization().wireName());
    TripleRequestWrapper wrapper = TripleRequestWrapper.parseFrom(
        encode(codecs.arguments(), BigDecimal.ONE, BigInteger.TWO));
    byte[] renamed = wrapper.toBuilder().setSerializeType("hessian2").build().toByteArray();
    assertArrayEquals(new Object[] {BigDecimal.ONE, BigInteger.TWO}, decode(codecs.arguments(), renamed));
  }

  @Test
  void jsonArgumentsAreReadableJson() throws Exception {
    WrapperCodecs codecs = shop("total", ObjectSerializations.named("jackson"));
    TripleRequestWrapper wrapper = TripleRequestWrapper.parseFrom(
        encode(codecs.arguments(), new BigDecimal("1.50"), BigInteger.TEN));
    assertEquals("jackson", wrapper.getSerializeType());
    assertEquals("1.50", wrapper.getArgs(0).toStringUtf8());
    assertEquals("10", wrapper.getArgs(1).toStringUtf8());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void writingTheWrongNumberOfArgumentsIsAProgrammingError(ObjectSerialization serialization) {
    WrapperCodecs codecs = shop("total", serialization);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> encode(codecs.arguments(), BigDecimal.ONE));
    assertTrue(e.getMessage().contains("takes 2 argument(s), 1 given"), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aValueTheSerializationCannotWriteNamesTheArgument(ObjectSerialization serialization) {
    WrapperCodecs codecs = WrapperCodecs.forMethod(method(Repository.class, "echo"), serialization);
    IOException e = assertThrows(IOException.class, () -> encode(codecs.arguments(), new Unwritable()));
    assertTrue(e.getMessage().contains("argument 0"), e.getMessage());
    assertTrue(e.getMessage().contains(Unwritable.class.getName()), e.getMessage());
  }

  /** Neither serialization can write it: hessian fails on the thread, Jackson on the getter. */
  static final class Unwritable {
    @SuppressWarnings("unused")
    private final Thread thread = Thread.currentThread();

    public String getBoom() {
      throw new IllegalStateException("boom");
    }
  }

  static List<Type> typeList(Type... types) {
    return List.of(types);
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void explicitTypesServeStreamingShapes(ObjectSerialization serialization) throws Exception {
    AllowedClasses allowed = AllowedClasses.forTypes("service Svc", typeList(Address.class, Animal.class),
        getClass().getClassLoader(), DeserializationAllowList.create());
    MessageCodec<Object[]> request = WrapperCodecs.requestCodec("Svc.stream", serialization,
        getClass().getClassLoader(), typeList(Address.class), allowed);
    assertArrayEquals(new Object[] {new Address("a", "b", 1)},
        decode(request, encode(request, new Address("a", "b", 1))));
    MessageCodec<Object> response = WrapperCodecs.responseCodec("Svc.stream", serialization,
        getClass().getClassLoader(), Animal.class, allowed);
    assertEquals(new Dog("Rex", 1, "x", List.of()), decode(response, encodeValue(response, new Dog("Rex", 1, "x", List.of()))));
  }

  @Test
  void codecsDescribeTheirMethod() {
    WrapperCodecs codecs = shop("place", ObjectSerializations.defaultSerialization());
    assertTrue(codecs.toString().contains("ShopService.place"), codecs.toString());
    assertTrue(codecs.arguments().toString().contains("ShopService.place"));
    assertEquals("proto", codecs.arguments().subtype());
    assertEquals("proto", codecs.result().subtype());
    assertEquals(-1, codecs.arguments().serializedSize(new Object[5]));
    assertEquals(-1, codecs.result().serializedSize(null));
  }
}
