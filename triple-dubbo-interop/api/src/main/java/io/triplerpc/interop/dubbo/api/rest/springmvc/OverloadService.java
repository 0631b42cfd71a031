package io.triplerpc.interop.dubbo.api.rest.springmvc;

import io.triplerpc.interop.dubbo.api.Item;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Java overloads, as a Dubbo service declares them in Spring Web's style: {@code greet} with none, one and
 * two parameters (one primitive), {@code find} by a primitive, a boxed and a POJO parameter, the last with a
 * result type of its own. Over Triple's wire each call names its overload by its {@code argTypes}; over
 * REST each overload is a route of its own. {@link OverloadServices} is the one implementation both sides serve.
 */
@RequestMapping("/overloads")
public interface OverloadService {

  /** {@code "hello"}. */
  @GetMapping("/greet")
  String greet();

  /** {@code "hello <name>"}. */
  @GetMapping("/greet/{name}")
  String greet(@PathVariable("name") String name);

  /** {@code "hello <name>"} {@code times} times, space-separated. */
  @GetMapping("/greet/{name}/{times}")
  String greet(@PathVariable("name") String name, @PathVariable("times") int times);

  /** {@code "long <id>"}. */
  @GetMapping("/find/{id}")
  String find(@PathVariable("id") long id);

  /** {@code "Long <id>"}, {@code "Long null"} without one. */
  @GetMapping("/find")
  String find(@RequestParam(value = "id", required = false) Long id);

  /** {@code example}, then a copy named {@code <name> junior} of quantity 1. */
  @PostMapping("/find")
  List<Item> find(@RequestBody Item example);
}
