package io.triplerpc.serialization.dubbo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.dubbo.rpc.model.ReflectionMethodDescriptor;
import org.apache.dubbo.rpc.model.WrapperUnPack;
import org.apache.dubbo.rpc.protocol.tri.ReflectionPackableMethod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Our wrapper codecs against Apache Dubbo 3.3.6's own Triple code path for non-protobuf methods
 * ({@code ReflectionPackableMethod}, its hand-written wrapper parser and its hessian2 serialization): what
 * we write, Dubbo reads; what Dubbo writes, we read. Dubbo insists on {@link Serializable} classes by
 * default, so the types here declare it.
 */
class DubboCompatibilityTest {

  /** A service interface both sides share. */
  public interface Inventory {
    Item restock(Item item, int count, List<Item> related, Map<String, Kind> kinds, LocalDate day) throws SoldOutException;

    List<Item> list();

    void clear(String reason);

    Tag tag(Tag tag, List<Tag> more);

    BigDecimal total(BigDecimal price, BigInteger units, Instant at, LocalDateTime local, Duration window,
        ZonedDateTime zoned);
  }

  public enum Kind { TOOL, FOOD }

  /** Dubbo requires Serializable; hessian-lite 4 reads records through their canonical constructor. */
  public record Tag(String name, int weight) implements Serializable {}

  /** A POJO base, sent as the subclass {@link Hammer}. */
  public static class Item implements Serializable {
    private static final long serialVersionUID = 1L;
    private String name;
    private Kind kind;
    private Integer stock;

    public Item() {}

    public Item(String name, Kind kind, Integer stock) {
      this.name = name;
      this.kind = kind;
      this.stock = stock;
    }

    @Override
    public boolean equals(Object o) {
      return o != null && o.getClass() == getClass() && Objects.equals(name, ((Item) o).name)
          && kind == ((Item) o).kind && Objects.equals(stock, ((Item) o).stock);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, kind, stock);
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

    public SoldOutException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static final Object[] RESTOCK = {new Hammer("claw", 0.6), 3,
      List.of(new Item("nails", Kind.TOOL, null), new Hammer("mallet", 1.2)), Map.of("apple", Kind.FOOD),
      LocalDate.of(2024, 2, 29)};

  private static final Object[] TOTAL = {new BigDecimal("10.50"), BigInteger.TWO.pow(70),
      Instant.ofEpochSecond(1_700_000_000L, 5), LocalDateTime.of(2024, 1, 2, 3, 4, 5), Duration.ofSeconds(90),
      ZonedDateTime.of(2024, 7, 1, 9, 0, 0, 0, ZoneId.of("Europe/Paris"))};

  @AfterAll
  static void destroyDubbo() {
    FrameworkModel.destroyAll();
  }

  static Method method(String name) {
    return Arrays.stream(Inventory.class.getMethods()).filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
  }

  static ReflectionPackableMethod dubbo(String name) {
    URL url = URL.valueOf("tri://127.0.0.1:50051/" + Inventory.class.getName() + "?serialization=hessian2");
    return ReflectionPackableMethod.init(new ReflectionMethodDescriptor(method(name)), url);
  }

  static WrapperCodecs ours(String name) {
    return WrapperCodecs.forMethod(method(name), ObjectSerializations.named("hessian2"));
  }

  static byte[] write(io.triplerpc.serialization.MessageCodec<Object[]> codec, Object[] arguments) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(arguments, out);
    return out.toByteArray();
  }

  static <T> byte[] writeValue(io.triplerpc.serialization.MessageCodec<T> codec, T value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(value, out);
    return out.toByteArray();
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
    assertArrayEquals(dubbo("restock").getRequestPack().pack(RESTOCK), write(ours("restock").arguments(), RESTOCK));
    assertArrayEquals(dubbo("total").getRequestPack().pack(TOTAL), write(ours("total").arguments(), TOTAL));
  }

  @Test
  void resultsTravelBothWays() throws Exception {
    List<Item> items = List.of(new Hammer("claw", 0.5), new Item("bread", Kind.FOOD, 7));
    assertEquals(items, dubbo("list").getResponseUnpack().unpack(writeValue(ours("list").result(), items)));
    ReflectionPackableMethod server = dubbo("list");
    // A Dubbo server answers in the serialization the request named; it learns it from unpacking one.
    server.getRequestUnpack().unpack(write(ours("list").arguments(), null));
    assertEquals(items, ours("list").result().read(ByteBuffer.wrap(server.getResponsePack().pack(items))));
    assertEquals(null, ours("clear").result().read(ByteBuffer.wrap(dubbo("clear").getResponsePack().pack(null))));
    assertEquals(null, dubbo("clear").getResponseUnpack().unpack(writeValue(ours("clear").result(), null)));
  }

  @Test
  void recordsTravelBothWays() throws Exception {
    Object[] arguments = {new Tag("red", 1), List.of(new Tag("blue", 2))};
    assertArrayEquals(arguments, (Object[]) dubbo("tag").getRequestUnpack().unpack(write(ours("tag").arguments(), arguments)));
    assertArrayEquals(arguments, ours("tag").arguments().read(ByteBuffer.wrap(dubbo("tag").getRequestPack().pack(arguments))));
  }

  @Test
  void exceptionsTravelBothWays() throws Exception {
    SoldOutException thrown = new SoldOutException("no hammers", new IllegalStateException("supplier gone"));
    Object read = ((WrapperUnPack) dubbo("restock").getResponseUnpack())
        .unpack(writeValue(ours("restock").exception(), thrown), true);
    SoldOutException copy = assertInstanceOf(SoldOutException.class, read);
    assertEquals("no hammers", copy.getMessage());
    assertEquals("supplier gone", assertInstanceOf(IllegalStateException.class, copy.getCause()).getMessage());

    // Dubbo's server writes a declared exception with its response packer (data = the exception).
    Throwable ourRead = ours("restock").exception().read(ByteBuffer.wrap(dubbo("restock").getResponsePack().pack(thrown)));
    assertEquals("no hammers", assertInstanceOf(SoldOutException.class, ourRead).getMessage());
  }
}
