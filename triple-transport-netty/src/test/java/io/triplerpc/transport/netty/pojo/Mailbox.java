package io.triplerpc.transport.netty.pojo;

import io.triplerpc.TripleService;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A plain Java service whose parameter has the fields attackers look for ({@code Object}, a non-final
 * class), a declared graph (nested fields, generics) and a declared exception with a field of its own.
 */
public interface Mailbox {

  @TripleService(name = "triple.test.Mailbox")
  interface Hessian extends Mailbox {}

  @TripleService(name = "triple.test.MailboxFastjson2", serialization = "fastjson2")
  interface Fastjson2 extends Mailbox {}

  @TripleService(name = "triple.test.MailboxJackson", serialization = "jackson")
  interface Jackson extends Mailbox {}

  /** Returns a summary of what arrived: recipient, the contents' class, item and shelf counts. */
  String deliver(Parcel parcel) throws Undeliverable;

  /** A parcel holding {@code contents} ("note" for a {@link TrustedNote}, anything else for none). */
  Parcel open(String contents);

  class Parcel implements Serializable {
    private static final long serialVersionUID = 1L;
    public String to;
    /** Names no class, so the stream names one: where gadgets are sent. */
    public Object contents;
    public Item item;
    public List<Item> items;
    public Map<String, List<Item>> shelves;
  }

  /** Not final: JSON carries its class, so a peer may name a subclass. */
  class Item implements Serializable {
    private static final long serialVersionUID = 1L;
    public String name;
    public Label label;

    public Item() {}

    Item(String name, String label) {
      this.name = name;
      this.label = new Label();
      this.label.text = label;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Item && Objects.equals(name, ((Item) o).name)
          && Objects.equals(label.text, ((Item) o).label.text);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name);
    }
  }

  /** Reached only as a field of a field. */
  final class Label implements Serializable {
    private static final long serialVersionUID = 1L;
    public String text;
  }

  /** No signature names it; servers and clients that allow it by name accept it. */
  class TrustedNote implements Serializable {
    private static final long serialVersionUID = 1L;
    public String text;
  }

  class Undeliverable extends Exception {
    private static final long serialVersionUID = 1L;
    public String reason;

    public Undeliverable() {}

    Undeliverable(String reason) {
      super("undeliverable: " + reason);
      this.reason = reason;
    }
  }
}
