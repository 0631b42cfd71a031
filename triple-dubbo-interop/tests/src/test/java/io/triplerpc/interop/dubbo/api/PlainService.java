package io.triplerpc.interop.dubbo.api;

import java.util.List;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/**
 * The plain Java half of the interop services on Triple's side: the same name, methods and behaviour
 * as the Dubbo peer's {@code PlainService}, with Triple's {@link StreamObserver}, {@link #collect}
 * marked client streaming, and {@link #onlyInTriple} where the peer has {@code onlyInDubbo}. Values
 * travel with hessian2 (Triple's default and Dubbo's) in Dubbo's wrapper messages.
 */
@TripleService
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

  /**
   * The trace the call was served in: the span and baggage current while the service ran, as
   * {@link TraceHop} writes them; a Dubbo provider started with
   * {@code --relay} first makes the same call to the server it relays to and appends
   * {@code TraceHop.SEPARATOR} and that server's answer.
   */
  String traceHop();

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
  @TripleMethod(clientStreaming = true)
  StreamObserver<Item> collect(StreamObserver<Order> out);

  /** Bidi streaming: every item comes back at once, its name upper-cased. */
  StreamObserver<Item> shout(StreamObserver<Item> out);

  /** Only Triple's copy has it: a Triple client's call of it reaches a Dubbo provider that has no such method. */
  String onlyInTriple();
}
