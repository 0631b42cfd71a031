package io.triplerpc.interop.dubbo.api;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/** An order: a POJO holding a list of POJOs, an enum, a decimal and a field that may be null. */
public class Order implements Serializable {
  private static final long serialVersionUID = 1L;

  private String customer;
  private List<Item> items;
  private Shipping shipping;
  private BigDecimal total;
  private String note;

  public Order() {}

  public Order(String customer, List<Item> items, Shipping shipping, BigDecimal total, String note) {
    this.customer = customer;
    this.items = items;
    this.shipping = shipping;
    this.total = total;
    this.note = note;
  }

  public String getCustomer() {
    return customer;
  }

  public void setCustomer(String customer) {
    this.customer = customer;
  }

  public List<Item> getItems() {
    return items;
  }

  public void setItems(List<Item> items) {
    this.items = items;
  }

  public Shipping getShipping() {
    return shipping;
  }

  public void setShipping(Shipping shipping) {
    this.shipping = shipping;
  }

  public BigDecimal getTotal() {
    return total;
  }

  public void setTotal(BigDecimal total) {
    this.total = total;
  }

  public String getNote() {
    return note;
  }

  public void setNote(String note) {
    this.note = note;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Order other && Objects.equals(customer, other.customer)
        && Objects.equals(items, other.items) && shipping == other.shipping
        && Objects.equals(total, other.total) && Objects.equals(note, other.note);
  }

  @Override
  public int hashCode() {
    return Objects.hash(customer, items, shipping, total, note);
  }

  @Override
  public String toString() {
    return "Order{" + customer + " " + items + " " + shipping + " total=" + total + " note=" + note + "}";
  }

  /** How an order travels. */
  public enum Shipping {
    STANDARD,
    EXPRESS
  }
}
