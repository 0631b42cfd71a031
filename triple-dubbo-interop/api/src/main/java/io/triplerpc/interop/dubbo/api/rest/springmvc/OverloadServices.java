package io.triplerpc.interop.dubbo.api.rest.springmvc;

import io.triplerpc.interop.dubbo.api.Item;
import java.util.List;

/** {@link OverloadService} as its Javadoc specifies, served by both the Dubbo peer and Triple. */
public class OverloadServices implements OverloadService {

  @Override
  public String greet() {
    return "hello";
  }

  @Override
  public String greet(String name) {
    return "hello " + name;
  }

  @Override
  public String greet(String name, int times) {
    return ("hello " + name + " ").repeat(times).trim();
  }

  @Override
  public String find(long id) {
    return "long " + id;
  }

  @Override
  public String find(Long id) {
    return "Long " + id;
  }

  @Override
  public List<Item> find(Item example) {
    return List.of(example, new Item(example.getName() + " junior", 1, example.getPrice()));
  }
}
