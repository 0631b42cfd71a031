package io.triplerpc.serialization.wrapper;

import static io.triplerpc.serialization.wrapper.WrapperCodecsTest.encode;
import static io.triplerpc.serialization.wrapper.WrapperCodecsTest.encodeValue;
import static io.triplerpc.serialization.wrapper.WrapperCodecsTest.shop;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.model.Dog;
import io.triplerpc.serialization.model.OrderRejectedException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every way a peer's bytes can be wrong ends in an {@link IOException} that says what and where. */
class MalformedWrapperTest {

  static Stream<ObjectSerialization> serializations() {
    return ObjectSerializations.installed().stream();
  }

  /** Reads through the stream and both kinds of buffer, expecting each to fail with {@code fragments}. */
  static <T> void assertMalformed(MessageCodec<T> codec, byte[] bytes, String... fragments) {
    List<org.junit.jupiter.api.function.Executable> reads = List.of(
        () -> codec.read(new ByteArrayInputStream(bytes)),
        () -> codec.read(ByteBuffer.wrap(bytes)),
        () -> codec.read(ByteBuffer.allocateDirect(Math.max(1, bytes.length)).put(bytes).flip()));
    for (org.junit.jupiter.api.function.Executable read : reads) {
      IOException e = assertThrows(IOException.class, read);
      for (String fragment : fragments) {
        assertTrue(e.getMessage().contains(fragment), () -> "'" + fragment + "' missing from: " + e.getMessage());
      }
    }
  }

  static byte[] request(ObjectSerialization serialization, TripleRequestWrapper.Builder wrapper) throws IOException {
    return wrapper.build().toByteArray();
  }

  static TripleRequestWrapper.Builder validTotal(ObjectSerialization serialization) throws IOException {
    return TripleRequestWrapper.parseFrom(encode(shop("total", serialization).arguments(),
        new BigDecimal("1.5"), BigInteger.ONE)).toBuilder();
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void garbageIsAMalformedWrapper(ObjectSerialization serialization) {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01};
    assertMalformed(codecs.arguments(), garbage, "Malformed TripleRequestWrapper", "ShopService.total");
    assertMalformed(codecs.result(), garbage, "Malformed TripleResponseWrapper", "ShopService.total");
    assertMalformed(codecs.exception(), garbage, "Malformed TripleResponseWrapper");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aTruncatedWrapperIsMalformed(ObjectSerialization serialization) throws IOException {
    byte[] bytes = validTotal(serialization).build().toByteArray();
    assertMalformed(shop("total", serialization).arguments(), Arrays.copyOf(bytes, bytes.length - 3),
        "ShopService.total");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void anEmptyMessageHasTheWrongSerializeType(ObjectSerialization serialization) {
    assertMalformed(shop("total", serialization).arguments(), new byte[0], "serializeType is ''");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aSerializeTypeNoInstalledSerializationReadsIsRefused(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    // "json" too: Dubbo has no serialization of that name, and Triple's Jackson one is "jackson".
    for (String unknown : List.of("json", "protobuf", "kryo")) {
      byte[] bytes = request(serialization, validTotal(serialization).setSerializeType(unknown));
      assertMalformed(codecs.arguments(), bytes, "ShopService.total", "'" + unknown + "'", "hessian2 ('hessian4')",
          "jackson ('jackson')");
      for (ObjectSerialization installed : ObjectSerializations.installed()) {
        assertMalformed(codecs.arguments(), bytes, installed.name() + " ('" + installed.wireName() + "')");
      }
      byte[] response = TripleResponseWrapper.parseFrom(encodeValue(codecs.result(), BigDecimal.TEN)).toBuilder()
          .setSerializeType(unknown).build().toByteArray();
      assertMalformed(codecs.result(), response, "'" + unknown + "'", serialization.wireName());
    }
  }

  @Test
  void eachSerializationReadsWhatTheOthersWriteByTheSerializeTypeTheyName() throws IOException {
    for (ObjectSerialization writer : ObjectSerializations.installed()) {
      byte[] request = validTotal(writer).build().toByteArray();
      byte[] response = encodeValue(shop("total", writer).result(), BigDecimal.TEN);
      for (ObjectSerialization reader : ObjectSerializations.installed()) {
        WrapperCodecs codecs = shop("total", reader);
        InSerialization<Object[]> arguments = codecs.arguments().readInSerialization(ByteBuffer.wrap(request));
        assertArrayEquals(new Object[] {new BigDecimal("1.5"), BigInteger.ONE}, arguments.value());
        assertEquals(writer.name(), arguments.serialization().name());
        InSerialization<Object> result = codecs.result().readInSerialization(ByteBuffer.wrap(response));
        assertEquals(BigDecimal.TEN, result.value());
        assertEquals(writer.name(), result.serialization().name());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void theWrongNumberOfArgumentsIsRefused(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    TripleRequestWrapper valid = validTotal(serialization).build();
    byte[] oneMissing = TripleRequestWrapper.newBuilder().setSerializeType(valid.getSerializeType())
        .addArgs(valid.getArgs(0)).build().toByteArray();
    assertMalformed(codecs.arguments(), oneMissing, "takes 2 argument(s), but the request carries 1");
    byte[] oneTooMany = valid.toBuilder().addArgs(valid.getArgs(0)).build().toByteArray();
    assertMalformed(codecs.arguments(), oneTooMany, "takes 2 argument(s), but the request carries 3");
    assertMalformed(shop("list", serialization).arguments(), valid.toByteArray(), "takes 0 argument(s)");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void argumentTypesThatDifferFromTheDeclaredOnesAreRefused(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] bytes = validTotal(serialization).setArgTypes(1, "java.lang.Long").build().toByteArray();
    assertMalformed(codecs.arguments(), bytes, "declares argument types [java.math.BigDecimal, java.math.BigInteger]",
        "java.lang.Long");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void typeNamesAfterTheDeclaredOnesAreIgnoredAsDubboServerStreamsSendThem(ObjectSerialization serialization)
      throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] bytes = validTotal(serialization).addArgTypes("org.apache.dubbo.common.stream.StreamObserver").build()
        .toByteArray();
    assertArrayEquals(new Object[] {new BigDecimal("1.5"), BigInteger.ONE}, codecs.arguments().read(ByteBuffer.wrap(bytes)));
    byte[] tooFew = validTotal(serialization).clearArgTypes().addArgTypes("java.math.BigDecimal").build().toByteArray();
    assertMalformed(codecs.arguments(), tooFew, "declares argument types");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aRequestWithoutArgumentTypesIsTrusted(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] bytes = validTotal(serialization).clearArgTypes().build().toByteArray();
    assertArrayEquals(new Object[] {new BigDecimal("1.5"), BigInteger.ONE}, codecs.arguments().read(ByteBuffer.wrap(bytes)));
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void garbageInsideAnArgumentNamesTheArgument(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] bytes = validTotal(serialization).setArgs(1, ByteString.copyFrom(new byte[] {(byte) 0xd7, 0x7f, 0x00}))
        .build().toByteArray();
    assertMalformed(codecs.arguments(), bytes, "ShopService.total: argument 1", "Malformed", "java.math.BigInteger");
    byte[] empty = validTotal(serialization).setArgs(0, ByteString.EMPTY).build().toByteArray();
    assertMalformed(codecs.arguments(), empty, "argument 0");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void anArgumentOfAnotherTypeIsRefused(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    byte[] aString = encodeValue(shop("names", serialization).result(), new String[] {"not a number"});
    byte[] bytes = validTotal(serialization)
        .setArgs(0, TripleResponseWrapper.parseFrom(aString).getData()).build().toByteArray();
    assertMalformed(codecs.arguments(), bytes, "argument 0");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void bytesAfterAnArgumentAreRefused(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("total", serialization);
    TripleRequestWrapper valid = validTotal(serialization).build();
    byte[] padded = valid.toBuilder().setArgs(0, valid.getArgs(0).concat(valid.getArgs(0))).build().toByteArray();
    assertMalformed(codecs.arguments(), padded, "argument 0");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void nullForAPrimitiveParameterIsRefused(ObjectSerialization serialization) throws IOException {
    WrapperCodecs count = shop("count", serialization);
    WrapperCodecs boxed = shop("boxed", serialization);
    // The boxed twin of count(int, long, ...) writes the same values, nulls included.
    TripleRequestWrapper nulls = TripleRequestWrapper.parseFrom(encode(boxed.arguments(), new Object[8]));
    byte[] bytes = TripleRequestWrapper.newBuilder().setSerializeType(nulls.getSerializeType())
        .addAllArgs(nulls.getArgsList()).build().toByteArray();
    assertMalformed(count.arguments(), bytes, "ShopService.count: argument 0", "null", "int");
    byte[] nullResult = TripleResponseWrapper.parseFrom(encodeValue(boxed.result(), null)).toByteArray();
    assertMalformed(count.result(), nullResult, "ShopService.count: ", "null");
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void anExceptionResponseMustHoldAnException(ObjectSerialization serialization) throws IOException {
    WrapperCodecs codecs = shop("adopt", serialization);
    byte[] nullException = encodeValue(shop("adopt", serialization).result(), null);
    assertMalformed(codecs.exception(), nullException, "ShopService.adopt", "null exception");
  }

  @Test
  void hessianReadsAClassItDoesNotHaveAsTheDeclaredType() throws IOException {
    // A peer whose Animal subclass this side does not have: hessian fills in the declared class, as in Dubbo.
    WrapperCodecs codecs = shop("adopt", ObjectSerializations.named("hessian2"));
    byte[] bytes = encodeValue(codecs.result(), new Dog("Rex", 1, "pug", null));
    byte[] renamed = replace(bytes, Dog.class.getName(), Dog.class.getName().replace("Dog", "Cat"));
    assertEquals(new Animal("Rex", 4, 1), codecs.result().read(ByteBuffer.wrap(renamed)));

    // An exception class this side does not have keeps its message and stack trace as a Throwable.
    byte[] exception = encodeValue(codecs.exception(), new OrderRejectedException("sold out"));
    String name = OrderRejectedException.class.getName();
    Throwable read = codecs.exception().read(ByteBuffer.wrap(replace(exception, name, name.replace("Order", "Cargo"))));
    assertEquals(Throwable.class, read.getClass());
    assertEquals("sold out", read.getMessage());
  }

  @Test
  void hessianRefusesAValueThatIsNotTheDeclaredType() throws IOException {
    ObjectSerialization hessian = ObjectSerializations.named("hessian2");
    byte[] aString = TripleResponseWrapper.parseFrom(encodeValue(shop("names", hessian).result(), new String[] {"x"}))
        .toBuilder().setType("").build().toByteArray();
    assertMalformed(shop("total", hessian).result(), aString, "ShopService.total: result", "java.math.BigDecimal");
  }

  @Test
  void jsonRefusesAClassOutsideTheDeclaredHierarchy() throws IOException {
    WrapperCodecs codecs = shop("adopt", ObjectSerializations.named("jackson"));
    byte[] bytes = TripleResponseWrapper.newBuilder().setSerializeType("jackson")
        .setData(ByteString.copyFromUtf8("{\"@class\":\"java.lang.ProcessBuilder\",\"command\":[\"true\"]}"))
        .build().toByteArray();
    assertMalformed(codecs.result(), bytes, "ShopService.adopt", "class java.lang.ProcessBuilder is not allowed");
    byte[] notThrowable = TripleResponseWrapper.newBuilder().setSerializeType("jackson")
        .setData(ByteString.copyFromUtf8("{\"@class\":\"java.util.ArrayList\"}")).build().toByteArray();
    assertMalformed(codecs.exception(), notThrowable, "ShopService.adopt: exception", "java.util.ArrayList");
    byte[] unknown = TripleResponseWrapper.newBuilder().setSerializeType("jackson")
        .setData(ByteString.copyFromUtf8("{\"@class\":\"com.example.Missing\"}")).build().toByteArray();
    assertMalformed(codecs.result(), unknown, "com.example.Missing");
  }

  /** Replaces an ASCII string of the same length inside {@code bytes}. */
  static byte[] replace(byte[] bytes, String from, String to) {
    byte[] source = from.getBytes(StandardCharsets.US_ASCII);
    byte[] target = to.getBytes(StandardCharsets.US_ASCII);
    byte[] copy = bytes.clone();
    for (int i = 0; i + source.length <= copy.length; i++) {
      if (Arrays.equals(copy, i, i + source.length, source, 0, source.length)) {
        System.arraycopy(target, 0, copy, i, target.length);
        return copy;
      }
    }
    throw new AssertionError(from + " not found");
  }
}
