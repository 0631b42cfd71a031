package io.triplerpc.serialization.dubbo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.common.serialize.fastjson2.FastJson2Serialization;
import org.apache.dubbo.common.utils.SerializeSecurityManager;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.dubbo.rpc.model.ReflectionMethodDescriptor;
import org.apache.dubbo.rpc.model.WrapperUnPack;
import org.apache.dubbo.rpc.protocol.tri.ReflectionPackableMethod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our fastjson2 serialization against Apache Dubbo 3.3.6's own ({@code FastJson2Serialization}, and its
 * Triple code path for non-protobuf methods, {@code ReflectionPackableMethod} with
 * {@code serialization=fastjson2}): every value we write is byte for byte what Dubbo writes, Dubbo reads what
 * we write, and we read what Dubbo writes. Dubbo insists on {@link Serializable} classes by default, and in
 * its STRICT mode reads only classes its allow list names or that lie in the packages of interfaces it
 * knows; the test allows this package explicitly, so that no test depends on which one ran first.
 */
class DubboFastjson2CompatibilityTest {

  private static final ObjectSerialization FASTJSON2 = ObjectSerializations.named("fastjson2");
  private static final ClassLoader LOADER = DubboFastjson2CompatibilityTest.class.getClassLoader();

  /** A service interface both sides share. */
  public interface Inventory {
    Item restock(Item item, int count, List<Item> related, Map<String, Kind> kinds, LocalDate day)
        throws SoldOutException;

    List<Item> list();

    void clear(String reason);

    Tag tag(Tag tag, List<Tag> more);

    BigDecimal total(BigDecimal price, BigInteger units, Instant at, LocalDateTime local, Duration window,
        ZonedDateTime zoned);

    Optional<Item> find(String name, Optional<Kind> kind);
  }

  public enum Kind { TOOL, FOOD }

  public record Tag(String name, int weight) implements Serializable {}

  /** A POJO base, sent as the subclass {@link Hammer}. */
  public static class Item implements Serializable {
    private static final long serialVersionUID = 1L;
    private String name;
    private Kind kind;
    private Integer stock;
    List<Tag> tags;

    public Item() {}

    public Item(String name, Kind kind, Integer stock) {
      this.name = name;
      this.kind = kind;
      this.stock = stock;
    }

    @Override
    public boolean equals(Object o) {
      return o != null && o.getClass() == getClass() && Objects.equals(name, ((Item) o).name)
          && kind == ((Item) o).kind && Objects.equals(stock, ((Item) o).stock)
          && Objects.equals(tags, ((Item) o).tags);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, kind, stock);
    }

    @Override
    public String toString() {
      return getClass().getSimpleName() + "(" + name + ", " + kind + ", " + stock + ", " + tags + ")";
    }
  }

  public static class Hammer extends Item {
    private static final long serialVersionUID = 1L;
    private double weight;

    public Hammer() {}

    public Hammer(String name, double weight) {
      super(name, Kind.TOOL, 1);
      this.weight = weight;
    }

    @Override
    public boolean equals(Object o) {
      return super.equals(o) && ((Hammer) o).weight == weight;
    }

    @Override
    public int hashCode() {
      return Objects.hash(super.hashCode(), weight);
    }
  }

  public static class SoldOutException extends Exception {
    private static final long serialVersionUID = 1L;
    int missing;

    public SoldOutException(String message, Throwable cause) {
      super(message, cause);
    }

    public SoldOutException(String message, int missing) {
      super(message);
      this.missing = missing;
    }
  }

  private static final Object[] RESTOCK = {hammer("claw", 0.6), 3,
      new ArrayList<>(List.of(new Item("nails", Kind.TOOL, null), new Hammer("mallet", 1.2))),
      new HashMap<>(Map.of("apple", Kind.FOOD)), LocalDate.of(2024, 2, 29)};

  private static final Object[] TOTAL = {new BigDecimal("10.50"), BigInteger.TWO.pow(70),
      Instant.ofEpochSecond(1_700_000_000L, 5), LocalDateTime.of(2024, 1, 2, 3, 4, 5), Duration.ofSeconds(90),
      ZonedDateTime.of(2024, 7, 1, 9, 0, 0, 0, ZoneId.of("Europe/Paris"))};

  private static Hammer hammer(String name, double weight) {
    Hammer hammer = new Hammer(name, weight);
    hammer.tags = List.of(new Tag("steel", 2));
    return hammer;
  }

  @BeforeAll
  static void allowThisPackageInDubbo() {
    FrameworkModel.defaultModel().getBeanFactory().getOrRegisterBean(SerializeSecurityManager.class)
        .addToAllowed(DubboFastjson2CompatibilityTest.class.getPackageName() + ".");
  }

  @AfterAll
  static void destroyDubbo() {
    FrameworkModel.destroyAll();
  }

  static Method method(String name) {
    return Arrays.stream(Inventory.class.getMethods()).filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
  }

  static ReflectionPackableMethod dubbo(String name) {
    URL url = URL.valueOf("tri://127.0.0.1:50051/" + Inventory.class.getName() + "?serialization=fastjson2");
    return ReflectionPackableMethod.init(new ReflectionMethodDescriptor(method(name)), url);
  }

  static WrapperCodecs ours(String name) {
    return WrapperCodecs.forMethod(method(name), FASTJSON2);
  }

  static <T> byte[] write(MessageCodec<T> codec, T value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(value, out);
    return out.toByteArray();
  }

  /** What Dubbo's fastjson2 serialization writes for one value. */
  static byte[] dubboWrites(Object value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new FastJson2Serialization().serialize(null, out).writeObject(value);
    return out.toByteArray();
  }

  /** What Dubbo's fastjson2 serialization reads from {@code bytes}, declared as {@code type}. */
  static Object dubboReads(byte[] bytes, Class<?> type) throws Exception {
    return new FastJson2Serialization().deserialize(null, new ByteArrayInputStream(bytes)).readObject(type);
  }

  static Stream<Arguments> values() {
    Item item = new Item("bread", Kind.FOOD, 7);
    return Stream.of(
        Arguments.of(String.class, "h\u00e9llo \u4e16\u754c"),
        Arguments.of(int.class, -42),
        Arguments.of(long.class, Long.MIN_VALUE),
        Arguments.of(double.class, Math.PI),
        Arguments.of(boolean.class, true),
        Arguments.of(BigDecimal.class, new BigDecimal("-12345678901234567890.12345000")),
        Arguments.of(LocalDate.class, LocalDate.of(2024, 2, 29)),
        Arguments.of(Instant.class, Instant.ofEpochSecond(1_700_000_000L, 123_456_789)),
        Arguments.of(Kind.class, Kind.FOOD),
        Arguments.of(Tag.class, new Tag("red", 1)),
        Arguments.of(Item.class, item),
        Arguments.of(Item.class, hammer("claw", 0.5)),
        Arguments.of(Item.class, null),
        Arguments.of(List.class, new ArrayList<>(List.of(item, hammer("mallet", 1.5)))),
        Arguments.of(List.class, List.of(item, item)),
        Arguments.of(Map.class, new HashMap<>(Map.of("a", new Tag("x", 1), "b", Kind.TOOL))),
        Arguments.of(Optional.class, Optional.of("here")),
        Arguments.of(Optional.class, Optional.empty()),
        Arguments.of(int[].class, new int[] {1, -2, 3}),
        Arguments.of(Object.class, new Object[] {"a", 1, item}));
  }

  @ParameterizedTest
  @MethodSource("values")
  void everyValueIsByteForByteWhatDubboWritesAndReadsBack(Class<?> type, Object value) throws Exception {
    AllowedClasses allowed = AllowedClasses.forTypes("service " + Inventory.class.getName(),
        List.of(type, Item.class, Hammer.class, Tag.class, Kind.class), LOADER, DeserializationAllowList.create());
    ObjectCodec codec = FASTJSON2.codecFor(type, LOADER, allowed);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(value, out);
    byte[] dubbo = dubboWrites(value);
    assertArrayEquals(dubbo, out.toByteArray(), "the bytes Dubbo writes");

    Object ours = codec.read(new ByteArrayInputStream(dubbo));
    Object theirs = dubboReads(out.toByteArray(), type);
    if (value instanceof Object[] || value instanceof int[]) {
      assertArrayEquals(new Object[] {value}, new Object[] {ours});
      assertArrayEquals(new Object[] {value}, new Object[] {theirs});
    } else {
      assertEquals(value, ours);
      assertEquals(value, theirs);
    }
  }

  @Test
  void dubboReadsOurRequests() throws Exception {
    assertArrayEquals(RESTOCK, (Object[]) dubbo("restock").getRequestUnpack().unpack(write(ours("restock").arguments(), RESTOCK)));
    assertArrayEquals(TOTAL, (Object[]) dubbo("total").getRequestUnpack().unpack(write(ours("total").arguments(), TOTAL)));
    assertArrayEquals(new Object[0], (Object[]) dubbo("list").getRequestUnpack().unpack(write(ours("list").arguments(), null)));
  }

  @Test
  void weReadDubbosRequests() throws Exception {
    assertArrayEquals(RESTOCK, ours("restock").arguments().read(ByteBuffer.wrap(dubbo("restock").getRequestPack().pack(RESTOCK))));
    assertArrayEquals(TOTAL, ours("total").arguments().read(ByteBuffer.wrap(dubbo("total").getRequestPack().pack(TOTAL))));
    assertArrayEquals(new Object[] {"because"},
        ours("clear").arguments().read(ByteBuffer.wrap(dubbo("clear").getRequestPack().pack(new Object[] {"because"}))));
  }

  @Test
  void ourRequestsAreByteForByteDubbos() throws Exception {
    byte[] ours = write(ours("restock").arguments(), RESTOCK);
    assertArrayEquals(dubbo("restock").getRequestPack().pack(RESTOCK), ours);
    assertEquals("fastjson2", TripleRequestWrapper.parseFrom(ours).getSerializeType());
    assertArrayEquals(dubbo("total").getRequestPack().pack(TOTAL), write(ours("total").arguments(), TOTAL));
    Object[] tags = {new Tag("red", 1), List.of(new Tag("blue", 2))};
    assertArrayEquals(dubbo("tag").getRequestPack().pack(tags), write(ours("tag").arguments(), tags));
  }

  @Test
  void resultsTravelBothWays() throws Exception {
    List<Item> items = new ArrayList<>(List.of(hammer("claw", 0.5), new Item("bread", Kind.FOOD, 7)));
    assertEquals(items, dubbo("list").getResponseUnpack().unpack(write(ours("list").result(), items)));
    ReflectionPackableMethod server = dubbo("list");
    // A Dubbo server answers in the serialization the request named; it learns it from unpacking one.
    server.getRequestUnpack().unpack(write(ours("list").arguments(), null));
    byte[] answer = server.getResponsePack().pack(items);
    assertEquals("fastjson2", TripleResponseWrapper.parseFrom(answer).getSerializeType());
    assertArrayEquals(answer, write(ours("list").result(), items), "the bytes Dubbo answers with");
    assertEquals(items, ours("list").result().read(ByteBuffer.wrap(answer)));
    assertNull(ours("clear").result().read(ByteBuffer.wrap(dubbo("clear").getResponsePack().pack(null))));
    assertNull(dubbo("clear").getResponseUnpack().unpack(write(ours("clear").result(), null)));
  }

  @Test
  void optionalsTravelAsTheirValueOrNull() throws Exception {
    Object[] arguments = {"claw", Optional.of(Kind.TOOL)};
    assertArrayEquals(dubbo("find").getRequestPack().pack(arguments), write(ours("find").arguments(), arguments));
    assertArrayEquals(arguments, ours("find").arguments().read(ByteBuffer.wrap(dubbo("find").getRequestPack().pack(arguments))));
    Optional<Item> none = Optional.empty();
    assertEquals(none, ours("find").result().read(ByteBuffer.wrap(dubbo("find").getResponsePack().pack(none))));
    assertEquals(none, dubbo("find").getResponseUnpack().unpack(write(ours("find").result(), none)));
  }

  @Test
  void aDubboServerAnswersOurHessianCallerInHessianAndOurFastjson2CallerInFastjson2() throws Exception {
    ReflectionPackableMethod server = dubbo("list");
    List<Item> items = new ArrayList<>(List.of(new Item("bread", Kind.FOOD, 7)));
    WrapperCodecs hessian = WrapperCodecs.forMethod(method("list"), ObjectSerializations.named("hessian2"));
    server.getRequestUnpack().unpack(write(hessian.arguments(), null));
    byte[] answer = server.getResponsePack().pack(items);
    assertEquals("hessian4", TripleResponseWrapper.parseFrom(answer).getSerializeType());
    // Our fastjson2 method reads the hessian answer too, by the serializeType it names.
    assertEquals(items, ours("list").result().read(ByteBuffer.wrap(answer)));
  }

  @Test
  void exceptionsTravelBothWays() throws Exception {
    SoldOutException thrown = new SoldOutException("no hammers", new IllegalStateException("supplier gone"));
    byte[] ours = write(ours("restock").exception(), thrown);
    Object read = ((WrapperUnPack) dubbo("restock").getResponseUnpack()).unpack(ours, true);
    SoldOutException copy = assertInstanceOf(SoldOutException.class, read);
    assertEquals("no hammers", copy.getMessage());
    assertEquals("supplier gone", assertInstanceOf(IllegalStateException.class, copy.getCause()).getMessage());

    // Dubbo's server writes a declared exception with its response packer (data = the exception).
    byte[] theirs = dubbo("restock").getResponsePack().pack(thrown);
    assertArrayEquals(theirs, ours, "the bytes Dubbo writes for an exception");
    Throwable ourRead = ours("restock").exception().read(ByteBuffer.wrap(theirs));
    assertEquals("no hammers", assertInstanceOf(SoldOutException.class, ourRead).getMessage());
    assertEquals("supplier gone", assertInstanceOf(IllegalStateException.class, ourRead.getCause()).getMessage());
    // Class, method, file and line of each frame: JSONB carries no class loader or module names.
    assertEquals(frames(thrown), frames(ourRead));
  }

  @Test
  void anExceptionsOwnFieldsAndItsCauseTravelFromDubbo() throws Exception {
    SoldOutException thrown = new SoldOutException("short", 4);
    thrown.initCause(new IllegalArgumentException("bad count"));
    byte[] theirs = dubbo("restock").getResponsePack().pack(thrown);
    SoldOutException read = assertInstanceOf(SoldOutException.class,
        ours("restock").exception().read(ByteBuffer.wrap(theirs)));
    assertEquals("short", read.getMessage());
    assertEquals(4, read.missing);
    assertEquals("bad count", assertInstanceOf(IllegalArgumentException.class, read.getCause()).getMessage());
  }

  private static List<String> frames(Throwable thrown) {
    return Arrays.stream(thrown.getStackTrace())
        .map(frame -> frame.getClassName() + "." + frame.getMethodName() + ":" + frame.getLineNumber())
        .collect(Collectors.toList());
  }

  @Test
  void recordsTravelBothWays() throws Exception {
    Object[] arguments = {new Tag("red", 1), new ArrayList<>(List.of(new Tag("blue", 2)))};
    assertArrayEquals(arguments, (Object[]) dubbo("tag").getRequestUnpack().unpack(write(ours("tag").arguments(), arguments)));
    assertArrayEquals(arguments, ours("tag").arguments().read(ByteBuffer.wrap(dubbo("tag").getRequestPack().pack(arguments))));
  }

}
