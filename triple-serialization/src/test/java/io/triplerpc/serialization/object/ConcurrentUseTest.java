package io.triplerpc.serialization.object;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.model.Dog;
import io.triplerpc.serialization.model.Order;
import io.triplerpc.serialization.model.ShopService;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One codec instance serves many threads at once, each with its own reused streams and buffers. */
class ConcurrentUseTest {

  private static final int THREADS = 8;
  /** Calls per thread: enough for the threads' calls to interleave, few enough for a loaded CI machine. */
  private static final int CALLS = 100;

  static Stream<ObjectSerialization> serializations() {
    return ObjectSerializations.installed().stream();
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void sharedCodecsAreCorrectUnderConcurrentUse(ObjectSerialization serialization) throws Exception {
    WrapperCodecs codecs = WrapperCodecs.forMethod(
        Arrays.stream(ShopService.class.getMethods()).filter(m -> m.getName().equals("place")).findFirst()
            .orElseThrow(), serialization);
    MessageCodec<Object[]> arguments = codecs.arguments();
    MessageCodec<Object> result = codecs.result();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Callable<Integer> calls = () -> {
          start.await(30, TimeUnit.SECONDS);
          for (int i = 0; i < CALLS; i++) {
            long seed = thread * 100_000L + i;
            Object[] call = {Order.sample(seed), i, "n" + seed, new Dog("d" + seed, i, "b", List.of()),
                i % 2 == 0 ? Optional.empty() : Optional.of(LocalDate.ofEpochDay(seed))};
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            arguments.write(call, out);
            assertArrayEquals(call, arguments.read(ByteBuffer.wrap(out.toByteArray())));
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            result.write(call[0], response);
            assertEquals(call[0], result.read(new ByteArrayInputStream(response.toByteArray())));
          }
          return CALLS;
        };
        futures.add(pool.submit(calls));
      }
      int total = 0;
      for (Future<Integer> future : futures) {
        total += future.get(120, TimeUnit.SECONDS);
      }
      assertEquals(THREADS * CALLS, total);
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void singleValueCodecsAreCorrectUnderConcurrentUse(ObjectSerialization serialization) throws Exception {
    ObjectCodec codec = serialization.codecFor(Animal.class, getClass().getClassLoader());
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < CALLS; i++) {
            Animal animal = i % 2 == 0 ? new Animal("a" + thread + "-" + i, i, thread) : new Dog("d" + i, thread, "x", null);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            codec.write(animal, out);
            assertEquals(animal, codec.read(new ByteArrayInputStream(out.toByteArray())));
          }
          return null;
        }));
      }
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
