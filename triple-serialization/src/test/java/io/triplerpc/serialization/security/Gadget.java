package io.triplerpc.serialization.security;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * A gadget as deserialization attacks use them: a {@code Serializable} class whose static initializer,
 * constructor, setter, {@code readObject} and {@code readResolve} all act (here they trip the
 * {@link Tripwire}; a real one runs a command). No service signature names it, and no test instantiates it.
 */
public class Gadget implements Serializable {

  private static final long serialVersionUID = 1L;

  static {
    Tripwire.trip("Gadget.<clinit>");
  }

  private String command;

  public Gadget() {
    Tripwire.trip("Gadget.<init>");
  }

  public void setCommand(String command) {
    Tripwire.trip("Gadget.setCommand");
    this.command = command;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    Tripwire.trip("Gadget.readObject");
    in.defaultReadObject();
  }

  private Object readResolve() {
    Tripwire.trip("Gadget.readResolve " + command);
    return this;
  }
}
