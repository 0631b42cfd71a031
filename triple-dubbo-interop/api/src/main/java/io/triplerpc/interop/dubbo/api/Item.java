package io.triplerpc.interop.dubbo.api;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/** A line of an order: a POJO (no-argument constructor, getters and setters), as Dubbo users write them. */
public class Item implements Serializable {
  private static final long serialVersionUID = 1L;

  private String name;
  private int quantity;
  private BigDecimal price;

  public Item() {}

  public Item(String name, int quantity, BigDecimal price) {
    this.name = name;
    this.quantity = quantity;
    this.price = price;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public int getQuantity() {
    return quantity;
  }

  public void setQuantity(int quantity) {
    this.quantity = quantity;
  }

  public BigDecimal getPrice() {
    return price;
  }

  public void setPrice(BigDecimal price) {
    this.price = price;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Item other && name.equals(other.name) && quantity == other.quantity
        && Objects.equals(price, other.price);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, quantity, price);
  }

  @Override
  public String toString() {
    return "Item{" + name + " x" + quantity + " @" + price + "}";
  }
}
