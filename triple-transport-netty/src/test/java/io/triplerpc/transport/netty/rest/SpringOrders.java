package io.triplerpc.transport.netty.rest;

import io.triplerpc.TripleService;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;

/** A plain Java service with Spring Web annotations, as a Dubbo 3.3 REST service declares them. */
@TripleService(name = "rest.test.Orders")
@RequestMapping("/orders")
public interface SpringOrders {

  enum State { OPEN, SHIPPED }

  /** A plain value class. */
  final class Order {
    public String id;
    public String item;
    public State state;
    public String requestId;

    public Order() {}

    Order(String id, String item, State state) {
      this.id = id;
      this.item = item;
      this.state = state;
    }
  }

  @GetMapping("/{id}")
  Order get(@PathVariable("id") String id);

  @PostMapping
  Order place(@RequestBody Order order, @RequestHeader(value = "X-Request-Id", required = false) String requestId);

  @GetMapping
  List<Order> list(@RequestParam(value = "state", defaultValue = "OPEN") State state,
      @RequestParam(value = "max", required = false) Integer max);

  @RequestMapping(path = "/{id}/ship", method = RequestMethod.POST)
  Order ship(@PathVariable("id") String id);

  @GetMapping("/files/{*path}")
  String file(@PathVariable("path") String path);

  @GetMapping("/count")
  int count(@RequestParam("state") State state);
}
