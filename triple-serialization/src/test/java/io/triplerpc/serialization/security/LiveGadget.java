package io.triplerpc.serialization.security;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * {@link Gadget}'s twin, for the one test that lets it through to show that the hand-built payloads are
 * live: its code runs when it is allowed. A class of its own, so that initializing it leaves
 * {@code Gadget} untouched.
 */
public class LiveGadget implements Serializable {

  private static final long serialVersionUID = 1L;

  static {
    Tripwire.trip("LiveGadget.<clinit>");
  }

  private String command;

  public LiveGadget() {
    Tripwire.trip("LiveGadget.<init>");
  }

  public void setCommand(String command) {
    Tripwire.trip("LiveGadget.setCommand");
    this.command = command;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    Tripwire.trip("LiveGadget.readObject");
    in.defaultReadObject();
  }

  private Object readResolve() {
    Tripwire.trip("LiveGadget.readResolve " + command);
    return this;
  }
}
