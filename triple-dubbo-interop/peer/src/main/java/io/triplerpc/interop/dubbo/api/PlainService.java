package io.triplerpc.interop.dubbo.api;

import java.util.List;
import org.apache.dubbo.common.stream.StreamObserver;

/**
 * The plain Java half of the interop services, as a Dubbo application declares it (Dubbo's
 * {@link StreamObserver}); Triple's tests declare the same interface under the same name with Triple's.
 * Values travel with hessian2 (or the serialization the peer is started with) in Triple's wrapper
 * messages. What each method does is specified here, so both sides implement the same thing.
 */
public interface PlainService {

  /**
   * Several parameters, POJOs in and out: an order of {@code items} for {@code customer}, total the
   * sum of price × quantity, note {@code null}.
   *
   * @throws OutOfStock for an item named {@code "unobtainium"}, short by its quantity
   */
  Order place(String customer, List<Item> items, boolean express) throws OutOfStock;

  /** No result: records {@code event}, for {@link #recorded()}. */
  void record(String event);

  /** The events {@link #record} recorded, oldest first. */
  List<String> recorded();

  /** {@code value} as given: null in, null out. */
  String echo(String value);

  /** The label of the implementation that answered: which export (version, group) a call reached. */
  String whoami();

  /** Throws {@code IllegalStateException(message)}, a runtime exception no method declares. */
  String fail(String message);

  /**
   * The value of the request attachment (header) {@code key} as the server received it, or null; the
   * server also answers with the response attachment (trailer) {@code key + "-echo"} of that value.
   */
  String attachment(String key);

  /**
   * The call's timeout as the server received it (the {@code grpc-timeout} header), in milliseconds:
   * Dubbo reports the header's value, Triple the time left when the call started; -1 without one.
   */
  long timeout();

  /** Returns {@code "slept " + millis} after sleeping that long, for a caller whose deadline is shorter. */
  String sleep(long millis);

  /** Server streaming: {@code item.quantity} items named {@code name#1..n}, quantity 1, same price. */
  void countdown(Item item, StreamObserver<Item> out);

  /**
   * Client streaming (Dubbo declares it bidi; Triple's copy marks it client streaming): the items the
   * client sends become one order for {@code "stream"} once it completes.
   */
  StreamObserver<Item> collect(StreamObserver<Order> out);

  /** Bidi streaming: every item comes back at once, its name upper-cased. */
  StreamObserver<Item> shout(StreamObserver<Item> out);

  /**
   * The trace the call was served in: the span and baggage current while the service ran, as
   * {@link TraceHop} writes them; a Dubbo provider started with
   * {@code --relay} first makes the same call to the server it relays to and appends
   * {@code TraceHop.SEPARATOR} and that server's answer.
   */
  String traceHop();

  /** Only Dubbo's copy has it: a Dubbo consumer's call of it reaches a Triple server that has no such method. */
  String onlyInDubbo();
}
