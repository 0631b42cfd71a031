package io.triplerpc.serialization.fastjson2;

import static com.alibaba.fastjson2.JSONB.Constants.BC_ARRAY;
import static com.alibaba.fastjson2.JSONB.Constants.BC_ARRAY_FIX_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_BINARY;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32;
import static com.alibaba.fastjson2.JSONB.Constants.BC_NULL;
import static com.alibaba.fastjson2.JSONB.Constants.BC_OBJECT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_OBJECT_END;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_ASCII;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_UTF16;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_UTF8;
import static com.alibaba.fastjson2.JSONB.Constants.BC_SYMBOL;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TYPED_ANY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.fastjson2.JSONB;
import com.alibaba.fastjson2.JSONWriter;
import io.triplerpc.serialization.model.Address;
import io.triplerpc.serialization.model.Order;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JSONB walk ends exactly where fastjson2's own writer ended each value, with the features Triple and
 * Dubbo write with and with names as symbols; and it refuses lengths that point back, counts the bytes cannot
 * hold, and values cut short.
 */
class JsonbShapeTest {

  static Stream<Object> values() {
    Map<Object, Object> oddKeys = new HashMap<>();
    oddKeys.put(7, "int key");
    oddKeys.put(List.of(1, 2), new byte[] {1, 2, 3});
    oddKeys.put(3.5, 'c');
    List<Object> selfHolding = new ArrayList<>();
    Address shared = new Address("1 Main St", "Springfield", 12345);
    selfHolding.add(shared);
    selfHolding.add(shared);
    selfHolding.add(selfHolding);
    List<Object> numbers = List.of(0, -16, 47, 48, -2048, 2047, 262_143, -262_144, Integer.MAX_VALUE,
        Integer.MIN_VALUE, 0L, -8L, 15L, 2047L, 262_143L, (long) Integer.MAX_VALUE + 1, Long.MIN_VALUE,
        (byte) 5, (short) 300, 1.5f, 3f, 0d, 1d, 2d, 0.1d, new BigDecimal("1.5"), new BigDecimal("1e400"),
        BigInteger.TEN, BigInteger.TWO.pow(200), 'x', '\u4e2d');
    return Stream.of(null, "", "short", "x".repeat(100), "\u00e9\u4e2d\uD83D\uDE00".repeat(50), numbers,
        Order.sample(3), List.of(Order.sample(1), Order.sample(2)), oddKeys, selfHolding,
        new Date(1_700_000_000_123L), new Date(1_700_000_000_000L), LocalTime.of(1, 2, 3, 4),
        OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 6, ZoneOffset.ofHours(3)), UUID.nameUUIDFromBytes(new byte[3]),
        new Object[] {shared, new int[] {1, 2}, new String[] {"a", null}}, Map.of("nested", Map.of("deeper",
            List.of(Map.of()))));
  }

  @ParameterizedTest
  @MethodSource("values")
  void theWalkEndsWhereTheWriterEnded(Object value) {
    for (JSONWriter.Feature[] features : List.of(Fastjson2ObjectSerialization.WRITE_FEATURES,
        withSymbols(Fastjson2ObjectSerialization.WRITE_FEATURES))) {
      byte[] jsonb = JSONB.toBytes(value, features);
      assertEquals(jsonb.length, JsonbShape.check(jsonb, 0, jsonb.length));
      byte[] framed = new byte[jsonb.length + 7];
      System.arraycopy(jsonb, 0, framed, 3, jsonb.length);
      assertEquals(3 + jsonb.length, JsonbShape.check(framed, 3, jsonb.length));
      // A value cut anywhere is not a value.
      for (int cut = 0; cut < jsonb.length; cut++) {
        int length = cut;
        assertThrows(IllegalArgumentException.class, () -> JsonbShape.check(jsonb, 0, length), () -> "cut at " + length);
      }
    }
  }

  private static JSONWriter.Feature[] withSymbols(JSONWriter.Feature[] features) {
    List<JSONWriter.Feature> all = new ArrayList<>(List.of(features));
    all.add(JSONWriter.Feature.WriteNameAsSymbol);
    return all.toArray(JSONWriter.Feature[]::new);
  }

  @Test
  void aLengthThatPointsBackIsRefused() {
    assertRefused("a length of -2", BC_OBJECT, 0x4b, 'z', 'z', BC_OBJECT, BC_STR_ASCII, -2, BC_OBJECT_END, BC_OBJECT_END);
    assertRefused("a length of -2", BC_BINARY, -2);
    assertRefused("a length of -5", BC_STR_UTF8, -5, 'a');
    assertRefused("a length of -1", BC_ARRAY, -1);
    assertRefused("a length of -2147483648", BC_STR_ASCII, BC_INT32, -128, 0, 0, 0);
    assertRefused("a length of -3", BC_SYMBOL, BC_STR_ASCII, -3, 1);
  }

  @Test
  void aCountTheBytesCannotHoldIsRefused() {
    assertRefused("an array of 2147483647 elements where 0 byte(s) follow", BC_ARRAY, BC_INT32, 127, -1, -1, -1);
    assertRefused("an array of 3 elements where 2 byte(s) follow", BC_ARRAY, 3, BC_NULL, BC_NULL);
    assertRefused("100 byte(s) where 1 follow", BC_BINARY, 0x38, 100, 0);
  }

  @Test
  void whatIsNotJsonbIsRefused() {
    assertRefused("type byte -120 where a value starts", -120);
    assertRefused("the bytes end inside the value", BC_OBJECT, 0x4a, 'a', BC_NULL);
    assertRefused("type byte -90 where a class name (ASCII or UTF-8) starts", BC_TYPED_ANY, BC_OBJECT);
    assertRefused("type byte -81 where an integer starts", BC_TYPED_ANY, 0x4a, 'T', BC_NULL);
    assertRefused("where a length starts", BC_STR_ASCII, BC_NULL);
  }

  @Test
  void aClassNameFastjson2WouldNotMovePastIsRefused() {
    // fastjson2 hashes a UTF-16 class name without moving past it, then reads its characters as values:
    // Fastjson2AllowListFuzzTest#jsonb found these, a field of an unknown name holding a typed object, as a
    // hang (the characters held a length that points back).
    byte[] found = HexFormat.of().parseHex("a64a6b927c384800a30c00a4072b0024492449244924492449244924"
        + "492449244924492449244924492449fd497ddb7ddf7ddb7ddf7ddb7ddf7ddb7ddf7ddb7ddf7ddb7ddf7ddb7ddf7ddbe7dd00a6"
        + "50636f6d6d616e644a78a5a5");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonbShape.check(found, 0, found.length));
    assertTrue(e.getMessage().contains("type byte 124 where a class name (ASCII or UTF-8) starts"), e.getMessage());
    assertRefused("where a class name (ASCII or UTF-8) starts", BC_TYPED_ANY, BC_STR_UTF16, 2, 'a', 0, 0, BC_NULL);
    assertRefused("where a class name (ASCII or UTF-8) starts", BC_TYPED_ANY, BC_SYMBOL, BC_STR_UTF16, 2, 'a', 0, 1,
        BC_NULL);
  }

  @Test
  void anAtTypeFieldHoldsAClassNameFastjson2MovesPast() {
    int[] ascii = {BC_OBJECT, 0x4e, '@', 't', 'y', 'p', 'e', 0x4a, 'X', BC_OBJECT_END};
    assertEquals(ascii.length, JsonbShape.check(bytes(ascii), 0, ascii.length));
    assertRefused("where a class name (ASCII or UTF-8) starts",
        BC_OBJECT, 0x4e, '@', 't', 'y', 'p', 'e', BC_STR_UTF16, 2, 'a', 0, BC_OBJECT_END);
    assertRefused("where an \"@type\" field's class name starts",
        BC_OBJECT, BC_STR_UTF8, 5, '@', 't', 'y', 'p', 'e', BC_SYMBOL, 1, BC_OBJECT_END);
    // Named by a symbol defined as "@type" before: the same.
    int[] bySymbol = {BC_OBJECT, BC_SYMBOL, 0x4e, '@', 't', 'y', 'p', 'e', 1, 0x4a, 'X', BC_SYMBOL, 1};
    assertRefused("where a class name (ASCII or UTF-8) starts", concat(bySymbol, BC_STR_UTF16, 2, 'a', 0, BC_OBJECT_END));
    int[] fine = concat(bySymbol, 0x4a, 'Y', BC_OBJECT_END);
    assertEquals(fine.length, JsonbShape.check(bytes(fine), 0, fine.length));
  }

  private static int[] concat(int[] head, int... tail) {
    int[] all = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }

  @Test
  void nestingCostsNoStack() {
    int levels = 200_000;
    byte[] deep = new byte[levels * 2];
    for (int i = 0; i < levels; i++) {
      deep[i] = (byte) (BC_ARRAY_FIX_MIN + 1);
    }
    deep[levels] = BC_NULL;
    assertEquals(levels + 1, JsonbShape.check(deep, 0, levels + 1));
  }

  private static byte[] bytes(int... jsonb) {
    byte[] bytes = new byte[jsonb.length];
    for (int i = 0; i < jsonb.length; i++) {
      bytes[i] = (byte) jsonb[i];
    }
    return bytes;
  }

  private static void assertRefused(String fragment, int... jsonb) {
    byte[] bytes = bytes(jsonb);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> JsonbShape.check(bytes, 0, bytes.length));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
