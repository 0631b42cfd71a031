package io.triplerpc.registry.internal;

/**
 * An application's endpoints by host and port: open addressing with linear probing, so a lookup
 * allocates nothing and an entry costs one array slot and a one-byte tag. The table need not be a
 * power of two (a hash is taken modulo its odd size), so it is sized to the instances: about 1.5
 * slots each, at most 4/3 of the entries when it grows. The tags (seven bits of the hash, and one
 * meaning "taken") let a probe pass over other entries without reading their endpoints, which are
 * elsewhere in memory. Not thread-safe: used under the directory's lock.
 */
final class EndpointIndex {

  private Endpoint[] table;
  /** Per slot: 0 if empty, else {@link #tag} of its endpoint's hash. */
  private byte[] tags;
  private int size;

  EndpointIndex() {
    this(8);
  }

  /** An index sized for {@code expected} endpoints without growing. */
  EndpointIndex(int expected) {
    int capacity = capacityFor(expected);
    table = new Endpoint[capacity];
    tags = new byte[capacity];
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

  /** Never 0: seven bits of the hash (others than those choosing the slot, mostly), and the top one. */
  private static byte tag(int hash) {
    return (byte) ((hash * 0x9E3779B9) >>> 25 | 0x80);
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
    byte[] g = tags;
    int n = g.length;
    int hash = Endpoint.hash(ipv4, host, port);
    byte tag = tag(hash);
    for (int i = home(hash, n); ; i = i + 1 == n ? 0 : i + 1) {
      byte t = g[i];
      if (t == 0) {
        return -(i + 1);
      }
      if (t == tag && table[i].matches(ipv4, host, port)) {
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
    int i = -missing - 1;
    table[i] = endpoint;
    tags[i] = tag(endpoint.hash());
    size++;
  }

  /** Adds {@code endpoint}, whose address must not be present. */
  void add(Endpoint endpoint) {
    if (tooFull(size + 1, table.length)) {
      resize(capacityFor(Math.max(size + 1, table.length)));
    }
    insert(table, tags, endpoint);
    size++;
  }

  private static void insert(Endpoint[] t, byte[] g, Endpoint endpoint) {
    int n = t.length;
    int hash = endpoint.hash();
    int i = home(hash, n);
    while (g[i] != 0) {
      i = i + 1 == n ? 0 : i + 1;
    }
    t[i] = endpoint;
    g[i] = tag(hash);
  }

  private void resize(int capacity) {
    Endpoint[] old = table;
    Endpoint[] t = new Endpoint[capacity];
    byte[] g = new byte[capacity];
    for (Endpoint e : old) {
      if (e != null) {
        insert(t, g, e);
      }
    }
    table = t;
    tags = g;
  }

  /** Removes {@code endpoint} (by identity); returns whether it was there. */
  boolean remove(Endpoint endpoint) {
    Endpoint[] t = table;
    byte[] g = tags;
    int n = t.length;
    int i = home(endpoint.hash(), n);
    while (t[i] != endpoint) {
      if (g[i] == 0) {
        return false;
      }
      i = i + 1 == n ? 0 : i + 1;
    }
    t[i] = null;
    g[i] = 0;
    size--;
    // Re-seat the rest of the probe run so lookups past the hole still find their entries.
    for (int j = i + 1 == n ? 0 : i + 1; g[j] != 0; j = j + 1 == n ? 0 : j + 1) {
      Endpoint moved = t[j];
      t[j] = null;
      g[j] = 0;
      insert(t, g, moved);
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
