package io.triplerpc.transport.netty.evil;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * A deserialization gadget: {@code Serializable}, and acting in its static initializer, constructor,
 * setter, {@code readObject} and {@code readResolve} (a real one would run a command; this one records a
 * {@link SideEffects}). Nothing in the tests instantiates it: only hand-built payloads name it.
 */
public class Gadget implements Serializable {

  private static final long serialVersionUID = 1L;

  static {
    SideEffects.happen("Gadget.<clinit>");
  }

  private String command;

  public Gadget() {
    SideEffects.happen("Gadget.<init>");
  }

  public void setCommand(String command) {
    SideEffects.happen("Gadget.setCommand " + command);
    this.command = command;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    SideEffects.happen("Gadget.readObject");
    in.defaultReadObject();
  }

  private Object readResolve() {
    SideEffects.happen("Gadget.readResolve " + command);
    return this;
  }
}
