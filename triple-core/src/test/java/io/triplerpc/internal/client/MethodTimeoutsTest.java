package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.StringValue;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.serialization.Serializations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A method config's timeout: the deadline of calls without one, and of calls whose own is later. */
class MethodTimeoutsTest {

  private final List<CallOptions> made = new ArrayList<>();
  private final MethodTimeouts calls = new MethodTimeouts(new ClientCallFactory() {
    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      made.add(options);
      return null;
    }
  }, Map.of("shop.Orders", new MethodConfig(null, null, Duration.ofSeconds(1).toNanos()),
      "shop.Orders/noTimeout", MethodConfig.EMPTY));

  private static MethodDescriptor<StringValue, StringValue> method(String service, String name) {
    return MethodDescriptor.of(service, name, MethodType.UNARY, Serializations.codecFor(StringValue.class),
        Serializations.codecFor(StringValue.class), false);
  }

  private long timeoutOf(MethodDescriptor<?, ?> method, CallOptions options) {
    calls.newCall(method, options);
    return made.get(made.size() - 1).timeoutNanos();
  }

  @Test
  void aCallWithoutADeadlineGetsTheConfigsTimeout() {
    assertEquals(Duration.ofSeconds(1).toNanos(), timeoutOf(method("shop.Orders", "place"), CallOptions.DEFAULT));
  }

  @Test
  void theSoonerOfTheCallsDeadlineAndTheConfigsTimeoutWins() {
    assertEquals(Duration.ofMillis(500).toNanos(),
        timeoutOf(method("shop.Orders", "place"), CallOptions.DEFAULT.withTimeout(Duration.ofMillis(500))));
    assertEquals(Duration.ofSeconds(1).toNanos(),
        timeoutOf(method("shop.Orders", "place"), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5))));
  }

  @Test
  void methodsWithoutATimeoutInTheirConfigKeepTheirOptions() {
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5));
    calls.newCall(method("shop.Orders", "noTimeout"), options);
    calls.newCall(method("shop.Carts", "add"), CallOptions.DEFAULT);
    assertEquals(List.of(options, CallOptions.DEFAULT), made, "the same options, not copies");
  }
}
