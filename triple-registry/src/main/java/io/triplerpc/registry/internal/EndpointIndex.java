package io.triplerpc.registry.internal;

/**
 * An application's endpoints by host and port: open addressing with linear probing, so a lookup
 * allocates nothing and an entry costs one array slot. Not thread-safe: used under the directory's
 * lock.
 */
final class EndpointIndex {

  private Endpoint[] table;
  private int size;

  EndpointIndex() {
    this(8);
  }

  /** An index sized for {@code expected} endpoints without growing. */
  EndpointIndex(int expected) {
    table = new Endpoint[capacityFor(expected)];
  }

  private static int capacityFor(int expected) {
    return Math.max(16, Integer.highestOneBit(Math.max(1, expected) * 2 - 1) * 2);
  }

  /** Grows once now rather than many times while {@code expected} endpoints are added. */
  void ensureCapacity(int expected) {
    int capacity = capacityFor(expected);
    if (capacity > table.length) {
      resize(capacity);
    }
  }

  int size() {
    return size;
  }

  Endpoint get(String host, int port) {
    Endpoint[] t = table;
    int mask = t.length - 1;
    for (int i = Endpoint.hash(host, port) & mask; ; i = (i + 1) & mask) {
      Endpoint e = t[i];
      if (e == null) {
        return null;
      }
      if (e.matches(host, port)) {
        return e;
      }
    }
  }

  /** Adds {@code endpoint}, whose address must not be present. */
  void add(Endpoint endpoint) {
    if ((size + 1) * 2 > table.length) {
      resize(table.length * 2);
    }
    insert(table, endpoint);
    size++;
  }

  private static void insert(Endpoint[] t, Endpoint endpoint) {
    int mask = t.length - 1;
    int i = Endpoint.hash(endpoint.host, endpoint.port) & mask;
    while (t[i] != null) {
      i = (i + 1) & mask;
    }
    t[i] = endpoint;
  }

  private void resize(int capacity) {
    Endpoint[] old = table;
    Endpoint[] t = new Endpoint[capacity];
    for (Endpoint e : old) {
      if (e != null) {
        insert(t, e);
      }
    }
    table = t;
  }

  /** Removes {@code endpoint} (by identity); returns whether it was there. */
  boolean remove(Endpoint endpoint) {
    Endpoint[] t = table;
    int mask = t.length - 1;
    int i = Endpoint.hash(endpoint.host, endpoint.port) & mask;
    while (t[i] != endpoint) {
      if (t[i] == null) {
        return false;
      }
      i = (i + 1) & mask;
    }
    t[i] = null;
    size--;
    // Re-seat the rest of the probe run so lookups past the hole still find their entries.
    for (int j = (i + 1) & mask; t[j] != null; j = (j + 1) & mask) {
      Endpoint moved = t[j];
      t[j] = null;
      insert(t, moved);
    }
    return true;
  }

  /** Calls {@code action} for every endpoint; the action must not change the index. */
  void forEach(java.util.function.Consumer<Endpoint> action) {
    for (Endpoint e : table) {
      if (e != null) {
        action.accept(e);
      }
    }
  }
}
