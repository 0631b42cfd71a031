package io.triplerpc.interop.dubbo.peer;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.triplerpc.interop.dubbo.api.Item;
import io.triplerpc.interop.dubbo.api.Order;
import io.triplerpc.interop.dubbo.api.OutOfStock;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.interop.dubbo.api.TraceHop;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.common.constants.CommonConstants;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.Invocation;
import org.apache.dubbo.rpc.RpcContext;

/** {@link PlainService} as a Dubbo application implements it, with Dubbo's own APIs for the context. */
final class DubboPlainService implements PlainService {

  private final List<String> events = new CopyOnWriteArrayList<>();
  private final String label;
  /** The Triple server {@link #traceHop} calls on, or null; read once the application has started. */
  private final ReferenceConfig<PlainService> relay;

  DubboPlainService(String label) {
    this(label, null);
  }

  DubboPlainService(String label, ReferenceConfig<PlainService> relay) {
    this.label = label;
    this.relay = relay;
  }

  @Override
  public String whoami() {
    return label;
  }

  @Override
  public Order place(String customer, List<Item> items, boolean express) throws OutOfStock {
    BigDecimal total = BigDecimal.ZERO;
    for (Item item : items) {
      if (item.getName().equals("unobtainium")) {
        throw new OutOfStock(item.getName(), item.getQuantity());
      }
      total = total.add(item.getPrice().multiply(BigDecimal.valueOf(item.getQuantity())));
    }
    return new Order(customer, items, express ? Order.Shipping.EXPRESS : Order.Shipping.STANDARD, total, null);
  }

  @Override
  public void record(String event) {
    events.add(event);
  }

  @Override
  public List<String> recorded() {
    return new ArrayList<>(events);
  }

  @Override
  public String echo(String value) {
    return value;
  }

  @Override
  public String fail(String message) {
    throw new IllegalStateException(message);
  }

  @Override
  public String attachment(String key) {
    String value = RpcContext.getServerAttachment().getAttachment(key);
    if (value != null) {
      RpcContext.getServerContext().setAttachment(key + "-echo", value);
    }
    return value;
  }

  @Override
  public long timeout() {
    // Dubbo's triple server keeps grpc-timeout as the invocation's attribute "timeout" (milliseconds).
    Invocation invocation = RpcContext.getServiceContext().getInvocation();
    Object timeout = invocation == null ? null : invocation.get(CommonConstants.TIMEOUT_KEY);
    return timeout == null ? -1 : ((Number) timeout).longValue();
  }

  @Override
  public String sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "slept " + millis;
  }

  @Override
  public void countdown(Item item, StreamObserver<Item> out) {
    for (int i = 1; i <= item.getQuantity(); i++) {
      out.onNext(new Item(item.getName() + "#" + i, 1, item.getPrice()));
    }
    out.onCompleted();
  }

  @Override
  public StreamObserver<Item> collect(StreamObserver<Order> out) {
    return new StreamObserver<>() {
      private final List<Item> items = new ArrayList<>();

      @Override
      public void onNext(Item item) {
        items.add(item);
      }

      @Override
      public void onError(Throwable t) {
        out.onError(t);
      }

      @Override
      public void onCompleted() {
        try {
          out.onNext(place("stream", items, false));
          out.onCompleted();
        } catch (OutOfStock e) {
          out.onError(e);
        }
      }
    };
  }

  @Override
  public StreamObserver<Item> shout(StreamObserver<Item> out) {
    return new StreamObserver<>() {
      @Override
      public void onNext(Item item) {
        out.onNext(new Item(item.getName().toUpperCase(Locale.ROOT), item.getQuantity(), item.getPrice()));
      }

      @Override
      public void onError(Throwable t) {
        out.onError(t);
      }

      @Override
      public void onCompleted() {
        out.onCompleted();
      }
    };
  }

  /**
   * The span and baggage Dubbo's tracing made current for this call (its server span), read through
   * OpenTelemetry's API, as Dubbo's OpenTelemetry bridge keeps them there; then, with a relay, the relayed
   * server's answer.
   */
  @Override
  public String traceHop() {
    SpanContext span = Span.current().getSpanContext();
    SortedMap<String, String> baggage = new TreeMap<>();
    Baggage.current().forEach((key, entry) -> baggage.put(key, entry.getValue()));
    String here = TraceHop.format(span.isValid() ? span.getTraceId() : null, span.getSpanId(), baggage);
    return relay == null ? here : here + TraceHop.SEPARATOR + relay.get().traceHop();
  }

  @Override
  public String onlyInDubbo() {
    return "only in Dubbo";
  }
}
