package io.triplerpc.transport.netty.pojo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Serves both variants of {@link Mailbox}, counting the parcels it received. */
final class MailboxImpl implements Mailbox.Hessian, Mailbox.Fastjson2, Mailbox.Jackson {

  final AtomicInteger delivered = new AtomicInteger();

  @Override
  public String deliver(Parcel parcel) throws Undeliverable {
    delivered.incrementAndGet();
    if (parcel.to == null) {
      throw new Undeliverable("no recipient");
    }
    if (parcel.to.equals("lost")) {
      throw new LostInTransit("van 7");
    }
    if (parcel.to.equals("lost, declared")) {
      Undeliverable declared = new Undeliverable("van broke down");
      declared.initCause(new LostInTransit("van 9"));
      throw declared;
    }
    return parcel.to + ":" + (parcel.contents == null ? "-" : parcel.contents.getClass().getSimpleName())
        + ":" + (parcel.item == null ? "-" : parcel.item.label.text)
        + ":" + (parcel.items == null ? 0 : parcel.items.size())
        + ":" + (parcel.shelves == null ? 0 : parcel.shelves.values().stream().mapToInt(List::size).sum());
  }

  @Override
  public Parcel open(String contents) {
    Parcel parcel = new Parcel();
    parcel.to = "you";
    if (contents.equals("note")) {
      TrustedNote note = new TrustedNote();
      note.text = "hi";
      parcel.contents = note;
    }
    parcel.item = new Item("box", "fragile");
    parcel.shelves = Map.of("top", List.of(new Item("a", "x")));
    return parcel;
  }
}

/** An exception no signature of {@link Mailbox} reaches: its clients may not build it. */
final class LostInTransit extends RuntimeException {
  private static final long serialVersionUID = 1L;

  LostInTransit(String where) {
    super("lost in " + where);
  }
}
