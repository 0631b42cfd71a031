package io.triplerpc.interop.dubbo.api;

/** A checked exception that {@link PlainService#place} declares, with fields of its own. */
public class OutOfStock extends Exception {
  private static final long serialVersionUID = 1L;

  private final String item;
  private final int missing;

  public OutOfStock(String item, int missing) {
    super(item + ": short by " + missing);
    this.item = item;
    this.missing = missing;
  }

  public String getItem() {
    return item;
  }

  public int getMissing() {
    return missing;
  }
}
