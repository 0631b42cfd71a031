package io.triplerpc.transport.netty.evil;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What gadget code ran; a class of its own, so that reading it does not initialize {@link Gadget}. */
public final class SideEffects {

  private static final List<String> HAPPENED = new CopyOnWriteArrayList<>();

  private SideEffects() {}

  static void happen(String what) {
    HAPPENED.add(what);
  }

  /** Everything gadget code did so far, in order; empty while no gadget ran. */
  public static List<String> happened() {
    return List.copyOf(HAPPENED);
  }
}
