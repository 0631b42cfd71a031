package io.triplerpc.serialization.hessian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.triplerpc.serialization.model.Address;
import io.triplerpc.serialization.model.Order;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.object.TypeToken;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HessianObjectSerializationTest {

  private static final ClassLoader LOADER = HessianObjectSerializationTest.class.getClassLoader();

  private final HessianObjectSerialization hessian = new HessianObjectSerialization();

  private static byte[] write(ObjectCodec codec, Object value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(value, out);
    return out.toByteArray();
  }

  @Test
  void itIsTheDefaultAndNamesItselfAsDubboDoes() {
    assertSame(HessianObjectSerialization.class, ObjectSerializations.defaultSerialization().getClass());
    assertEquals("hessian2", hessian.name());
    assertEquals("hessian4", hessian.wireName());
    assertTrue(hessian.readsWireName("hessian4"));
    assertTrue(hessian.readsWireName("hessian2"));
    assertTrue(!hessian.readsWireName("jackson") && !hessian.readsWireName("fastjson2"));
  }

  @Test
  void everyCallOnAThreadReusesThatThreadsStreams() throws IOException {
    ObjectCodec codec = hessian.codecFor(Order.class, LOADER);
    HessianStreams streams = HessianStreams.current();
    Hessian2Output output = streams.output();
    Hessian2Input input = streams.input();
    long writes = streams.outputReuses();
    long reads = streams.inputReuses();
    for (int i = 0; i < 50; i++) {
      Order order = Order.sample(i);
      assertEquals(order, codec.read(new ByteArrayInputStream(write(codec, order))));
    }
    assertSame(streams, HessianStreams.current());
    assertSame(output, HessianStreams.current().output(), "the same output object, reset between calls");
    assertSame(input, HessianStreams.current().input(), "the same input object, reset between calls");
    assertEquals(writes + 50, streams.outputReuses(), "every write used the thread's output");
    assertEquals(reads + 50, streams.inputReuses(), "every read used the thread's input");
  }

  @Test
  void eachThreadHasItsOwnStreams() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      HessianStreams theirs = other.submit(HessianStreams::current).get(10, TimeUnit.SECONDS);
      assertNotSame(HessianStreams.current(), theirs);
      assertNotSame(HessianStreams.current().output(), theirs.output());
      assertSame(theirs, other.submit(HessianStreams::current).get(10, TimeUnit.SECONDS));
    } finally {
      other.shutdownNow();
    }
  }

  @Test
  void aNestedUseWhileTheStreamIsLentGetsAFreshOne() {
    HessianStreams streams = HessianStreams.current();
    SerializerFactory factory = new SerializerFactory();
    Hessian2Output outer = streams.acquireOutput(factory, new ByteArrayOutputStream());
    Hessian2Output inner = streams.acquireOutput(factory, new ByteArrayOutputStream());
    assertSame(streams.output(), outer);
    assertNotSame(outer, inner);
    streams.release(inner);
    streams.release(outer);
    Hessian2Output next = streams.acquireOutput(factory, new ByteArrayOutputStream());
    assertSame(outer, next, "the thread's stream is free again");
    streams.release(next);

    Hessian2Input outerIn = streams.acquireInput(factory, new ByteArrayInputStream(new byte[0]));
    Hessian2Input innerIn = streams.acquireInput(factory, new ByteArrayInputStream(new byte[0]));
    assertNotSame(outerIn, innerIn);
    streams.release(innerIn);
    streams.release(outerIn);
  }

  @Test
  void aFailedReadLeavesNothingBehindForTheNextRead() throws IOException {
    ObjectCodec codec = hessian.codecFor(Address.class, LOADER);
    byte[] valid = write(codec, new Address("1 Main", "Springfield", 1));
    byte[] truncated = java.util.Arrays.copyOf(valid, valid.length - 4);
    assertThrows(IOException.class, () -> codec.read(new ByteArrayInputStream(truncated)));
    byte[] padded = java.util.Arrays.copyOf(valid, valid.length + 3);
    IOException trailing = assertThrows(IOException.class, () -> codec.read(new ByteArrayInputStream(padded)));
    assertTrue(trailing.getMessage().contains("bytes follow the value"), trailing.getMessage());
    assertEquals(new Address("1 Main", "Springfield", 1), codec.read(new ByteArrayInputStream(valid)));
  }

  @Test
  void garbageIsMalformed() {
    ObjectCodec codec = hessian.codecFor(Order.class, LOADER);
    for (byte[] garbage : new byte[][] {{}, {(byte) 0xff}, {'C', 0x05, 'x'}, "not hessian".getBytes(StandardCharsets.UTF_8)}) {
      IOException e = assertThrows(IOException.class, () -> codec.read(new ByteArrayInputStream(garbage)));
      assertTrue(e.getMessage().startsWith("Malformed hessian2") || e.getMessage().startsWith("Expected hessian2"),
          e.getMessage());
    }
  }

  @Test
  void optionalIsWrittenAsAOneFieldObject() throws IOException {
    byte[] bytes = write(hessian.codecFor(new TypeToken<Optional<String>>() {}.type(), LOADER), Optional.of("x"));
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    assertTrue(text.startsWith("C"), text);
    assertTrue(text.contains("java.util.Optional") && text.contains("value"), text);
  }

  @Test
  void optionalReadsFromAHessianOneMapToo() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Hessian2Output output = new Hessian2Output(out);
    output.writeMapBegin("java.util.Optional");
    output.writeString("value");
    output.writeString("x");
    output.writeMapEnd();
    output.flush();
    ObjectCodec codec = hessian.codecFor(new TypeToken<Optional<String>>() {}.type(), LOADER);
    assertEquals(Optional.of("x"), codec.read(new ByteArrayInputStream(out.toByteArray())));
  }

  @Test
  void aSharedOptionalIsWrittenOnceAndReadAsOne() throws IOException {
    Optional<Address> shared = Optional.of(new Address("a", "b", 1));
    List<Optional<Address>> list = new ArrayList<>(List.of(shared, shared, Optional.empty()));
    ObjectCodec codec = hessian.codecFor(new TypeToken<List<Optional<Address>>>() {}.type(), LOADER);
    @SuppressWarnings("unchecked")
    List<Optional<Address>> read = (List<Optional<Address>>) codec.read(new ByteArrayInputStream(write(codec, list)));
    assertEquals(list, read);
    assertSame(read.get(0), read.get(1), "hessian's back-reference resolves to the same Optional");
  }
}
