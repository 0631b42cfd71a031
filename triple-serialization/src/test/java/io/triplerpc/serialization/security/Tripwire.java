package io.triplerpc.serialization.security;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every piece of a gadget's code that ran. A class of its own, so that a test reading it does not
 * initialize the gadget classes it watches.
 */
public final class Tripwire {

  private static final List<String> TRIPPED = new CopyOnWriteArrayList<>();

  private Tripwire() {}

  static void trip(String what) {
    TRIPPED.add(what);
  }

  /** What ran since the last {@link #reset}, in order. */
  public static List<String> tripped() {
    return List.copyOf(TRIPPED);
  }

  public static void reset() {
    TRIPPED.clear();
  }
}
