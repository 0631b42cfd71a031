package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallOptionsTest {

  @Test
  void theDefaultsAreNoDeadlineNoCompressionNoInterceptorsAndTheClientsExecutor() {
    assertEquals(0, CallOptions.DEFAULT.timeoutNanos());
    assertNull(CallOptions.DEFAULT.compression());
    assertEquals(List.of(), CallOptions.DEFAULT.interceptors());
    assertNull(CallOptions.DEFAULT.executor());
  }

  @Test
  void everyWithReturnsACopyAndLeavesTheOriginal() {
    Executor executor = Runnable::run;
    ClientInterceptor interceptor = new NamedInterceptor();
    CallOptions options = CallOptions.DEFAULT
        .withTimeout(Duration.ofSeconds(3))
        .withCompression("gzip")
        .withInterceptors(interceptor)
        .withExecutor(executor);
    assertEquals(TimeUnit.SECONDS.toNanos(3), options.timeoutNanos());
    assertEquals("gzip", options.compression());
    assertEquals(List.of(interceptor), options.interceptors());
    assertSame(executor, options.executor());
    assertEquals(0, CallOptions.DEFAULT.timeoutNanos());
    assertNull(CallOptions.DEFAULT.compression());
    assertEquals(List.of(), CallOptions.DEFAULT.interceptors());
    assertNull(CallOptions.DEFAULT.executor());
  }

  @Test
  void timeoutsInAnyUnitBecomeNanoseconds() {
    assertEquals(1_500_000, CallOptions.DEFAULT.withTimeout(1500, TimeUnit.MICROSECONDS).timeoutNanos());
    assertEquals(TimeUnit.MINUTES.toNanos(2), CallOptions.DEFAULT.withTimeout(Duration.ofMinutes(2)).timeoutNanos());
    assertEquals(0, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(1)).withoutTimeout().timeoutNanos());
  }

  @Test
  void timeoutsTooLongForNanosecondsSaturate() {
    assertEquals(Long.MAX_VALUE, CallOptions.DEFAULT.withTimeout(Duration.ofDays(365L * 1_000_000)).timeoutNanos());
    assertEquals(Long.MAX_VALUE, CallOptions.DEFAULT.withTimeout(Long.MAX_VALUE, TimeUnit.DAYS).timeoutNanos());
  }

  @Test
  void timeoutsMustBePositive() {
    IllegalArgumentException zero =
        assertThrows(IllegalArgumentException.class, () -> CallOptions.DEFAULT.withTimeout(Duration.ZERO));
    assertTrue(zero.getMessage().contains("must be positive"), zero.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CallOptions.DEFAULT.withTimeout(Duration.ofMillis(-1)));
    assertThrows(IllegalArgumentException.class, () -> CallOptions.DEFAULT.withTimeout(-5, TimeUnit.SECONDS));
    assertThrows(NullPointerException.class, () -> CallOptions.DEFAULT.withTimeout(null));
  }

  @Test
  void interceptorsAddedLaterRunAfterTheOnesBeforeAndTheListCannotBeChanged() {
    ClientInterceptor first = new NamedInterceptor();
    ClientInterceptor second = new NamedInterceptor();
    ClientInterceptor third = new NamedInterceptor();
    CallOptions one = CallOptions.DEFAULT.withInterceptors(first);
    CallOptions three = one.withInterceptors(second, third);
    assertEquals(List.of(first, second, third), three.interceptors());
    assertEquals(List.of(first), one.interceptors());
    assertThrows(UnsupportedOperationException.class, () -> three.interceptors().add(first));
  }

  @Test
  void aNullInterceptorIsRejected() {
    NullPointerException e = assertThrows(NullPointerException.class,
        () -> CallOptions.DEFAULT.withInterceptors(new NamedInterceptor(), null));
    assertEquals("interceptor", e.getMessage());
  }

  private static final class NamedInterceptor implements ClientInterceptor {
    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(
        MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
      throw new AssertionError("not called in these tests");
    }
  }
}
