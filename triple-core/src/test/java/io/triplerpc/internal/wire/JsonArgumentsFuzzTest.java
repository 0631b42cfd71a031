package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleService;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.internal.descriptor.WrappedMethod;
import io.triplerpc.serialization.MessageCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/**
 * Fuzz target for the JSON arguments of plain-Java services (Jazzer): a body as curl or a Connect client
 * sends it to a {@code @TripleService} interface, read by the method's real request codec for JSON
 * ({@code withSubtype("json")}, Jackson underneath) through {@link MessageCodecs#decode}, as the server
 * reads it, plain or gzip-compressed under a size limit.
 *
 * <p>Beyond "nothing escapes": the body reads as one value per parameter, each of its declared type (a
 * primitive never null); or the call ends with INVALID_ARGUMENT and a message (RESOURCE_EXHAUSTED when,
 * and only when, it decompresses to more than the limit), never INTERNAL; deep nesting and long values
 * stay within Jackson's limits as the same INVALID_ARGUMENT.
 */
class JsonArgumentsFuzzTest {

  /** The decompressed size a compressed body may reach. */
  private static final int MAX_SIZE = 64 * 1024;

  /** A plain-Java service: each method's parameters a shape JSON arguments take. */
  @TripleService(name = "fuzz.Shop")
  interface Shop {
    Receipt place(Order order, int quantity, String note, Optional<LocalDate> due);

    List<Order> search(Map<String, List<Order>> byCustomer, List<Color> colors);

    int count(int a, long b, double c, boolean d, char e, short f, byte g, float h);

    Order one(Order order);

    String echo(String text);

    Object anything(Object value);

    BigDecimal total(BigDecimal[] amounts);

    void ping();
  }

  enum Color { RED, GREEN }

  /** A plain value class, as services declare them. */
  public static final class Order {
    public String id;
    public int quantity;
    public List<String> items;
    public Map<String, Integer> counts;
    public Order parent;
    public Color color;
  }

  public static final class Receipt {
    public String id;
  }

  private static final List<MethodBinding> METHODS = ServiceDescriptor.of(Shop.class).methods().stream()
      .sorted(Comparator.comparing(m -> m.javaMethod().getName()))
      .toList();

  /**
   * The first byte of {@code input} picks the method (its high bit: the body is gzip-compressed); the
   * rest is the JSON body.
   */
  @FuzzTest
  void requestBodies(byte[] input) throws IOException {
    if (input.length == 0) {
      return;
    }
    MethodBinding binding = METHODS.get((input[0] & 0x7f) % METHODS.size());
    boolean compressed = (input[0] & 0x80) != 0;
    byte[] json = java.util.Arrays.copyOfRange(input, 1, input.length);
    @SuppressWarnings("unchecked")
    MessageCodec<Object> codec = (MessageCodec<Object>) binding.descriptor().requestCodec().withSubtype("json");
    ByteBuf body = Unpooled.wrappedBuffer(compressed ? gzip(json) : json);
    Object read;
    try {
      read = MessageCodecs.decode(codec, body, compressed, MessageEncoding.GZIP, MAX_SIZE, "request");
    } catch (StatusException e) {
      Status status = e.status();
      boolean tooLarge = compressed && json.length > MAX_SIZE;
      assertEquals(tooLarge ? Status.Code.RESOURCE_EXHAUSTED : Status.Code.INVALID_ARGUMENT, status.code(),
          () -> "a malformed body is the caller's mistake: " + status);
      assertTrue(status.description() != null && !status.description().isEmpty(), "with a message");
      return;
    } finally {
      body.release();
    }
    assertTrue(!compressed || json.length <= MAX_SIZE, "nothing over the limit is read");
    Object[] arguments = read instanceof Object[] array ? array : (Object[]) WrappedMethod.valueOf(read);
    Method method = binding.javaMethod();
    Class<?>[] types = method.getParameterTypes();
    assertEquals(types.length, arguments.length, "one value per parameter");
    for (int i = 0; i < types.length; i++) {
      Object argument = arguments[i];
      Class<?> type = MethodType.methodType(types[i]).wrap().returnType();
      if (types[i].isPrimitive()) {
        assertNotNull(argument, "a primitive is never null");
      }
      assertTrue(argument == null || type.isInstance(argument),
          () -> "argument of " + method.getName() + " is a " + argument.getClass() + ", not a " + type);
    }
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }
}
