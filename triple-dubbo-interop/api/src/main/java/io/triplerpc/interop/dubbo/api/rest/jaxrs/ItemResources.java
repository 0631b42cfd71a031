package io.triplerpc.interop.dubbo.api.rest.jaxrs;

import io.triplerpc.interop.dubbo.api.Item;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The one implementation of {@link ItemResource}, which the Dubbo peer exports and Triple's tests serve. */
public final class ItemResources implements ItemResource {

  @Override
  public Item get(String name, int quantity, BigDecimal price) {
    return new Item(name, quantity, price);
  }

  @Override
  public List<String> names(List<String> names, boolean sorted) {
    List<String> all = names == null ? new ArrayList<>() : new ArrayList<>(names);
    if (sorted) {
      Collections.sort(all);
    }
    return all;
  }

  @Override
  public Item add(Item item, int times, String tag) {
    return new Item(item.getName() + (tag == null ? "" : "#" + tag), item.getQuantity() * times, item.getPrice());
  }

  @Override
  public Item resize(String name, int quantity) {
    return new Item(name, quantity, null);
  }

  @Override
  public boolean remove(String name) {
    return "apple".equals(name);
  }
}
