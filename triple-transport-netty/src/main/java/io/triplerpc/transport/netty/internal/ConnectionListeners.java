package io.triplerpc.transport.netty.internal;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Who a transport tells of each change of its connections (the {@code onConnectionsChanged} of the
 * client and server transports): tests, and on a client a cluster that looks for servers again when one
 * goes away (DNS). Thread-safe; listeners must be quick.
 */
public final class ConnectionListeners {

  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  public void add(Runnable listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** The connections changed: tells every listener, on the calling thread. */
  public void changed() {
    for (Runnable listener : listeners) {
      listener.run();
    }
  }
}
