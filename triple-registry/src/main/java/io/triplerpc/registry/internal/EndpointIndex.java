package io.triplerpc.registry.internal;

/**
 * An application's endpoints by host and port: open addressing with linear probing, so a lookup
 * allocates nothing and an entry costs one array slot. The table need not be a power of two (a hash
 * is taken modulo its odd size), so it is sized to the instances: about 1.5 slots each, at
 * most 4/3 of the entries when it grows. Not thread-safe: used under the directory's lock.
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

  /** Three slots for two entries, so the table is at most 2/3 full; odd, so that a hash modulo it uses all its bits. */
  private static int capacityFor(int expected) {
    return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16L, expected * 3L / 2 + 1)) | 1;
  }

  /** Whether {@code entries} entries would fill more than 3/4 of a table of {@code capacity}. */
  private static boolean tooFull(int entries, int capacity) {
    return entries * 4L > capacity * 3L;
  }

  /** Grows once now rather than many times while {@code expected} endpoints are added. */
  void ensureCapacity(int expected) {
    if (tooFull(expected, table.length)) {
      resize(capacityFor(expected));
    }
  }

  int size() {
    return size;
  }

  /** The slot where a probe for {@code hash} starts in a table of {@code capacity} slots. */
  static int home(int hash, int capacity) {
    return Integer.remainderUnsigned(hash, capacity);
  }

  Endpoint get(String host, int port) {
    int i = find(Endpoint.ipv4(host), host, port);
    return i >= 0 ? table[i] : null;
  }

  /**
   * Where the endpoint at {@code host:port} is ({@code ipv4} being {@link Endpoint#ipv4(String)
   * Endpoint.ipv4(host)}): its slot, or {@code -(slot + 1)} for the empty slot where it would go.
   */
  int find(long ipv4, String host, int port) {
    Endpoint[] t = table;
    int n = t.length;
    for (int i = home(Endpoint.hash(ipv4, host, port), n); ; i = i + 1 == n ? 0 : i + 1) {
      Endpoint e = t[i];
      if (e == null) {
        return -(i + 1);
      }
      if (e.matches(ipv4, host, port)) {
        return i;
      }
    }
  }

  /** The endpoint in {@code slot} that {@link #find} returned. */
  Endpoint at(int slot) {
    return table[slot];
  }

  /** Adds {@code endpoint} at {@code missing}, what {@link #find} returned for its address just before. */
  void add(Endpoint endpoint, int missing) {
    if (tooFull(size + 1, table.length)) {
      add(endpoint);
      return;
    }
    table[-missing - 1] = endpoint;
    size++;
  }

  /** Adds {@code endpoint}, whose address must not be present. */
  void add(Endpoint endpoint) {
    if (tooFull(size + 1, table.length)) {
      resize(capacityFor(Math.max(size + 1, table.length)));
    }
    insert(table, endpoint);
    size++;
  }

  private static void insert(Endpoint[] t, Endpoint endpoint) {
    int n = t.length;
    int i = home(endpoint.hash(), n);
    while (t[i] != null) {
      i = i + 1 == n ? 0 : i + 1;
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
    int n = t.length;
    int i = home(endpoint.hash(), n);
    while (t[i] != endpoint) {
      if (t[i] == null) {
        return false;
      }
      i = i + 1 == n ? 0 : i + 1;
    }
    t[i] = null;
    size--;
    // Re-seat the rest of the probe run so lookups past the hole still find their entries.
    for (int j = i + 1 == n ? 0 : i + 1; t[j] != null; j = j + 1 == n ? 0 : j + 1) {
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
