package io.triplerpc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Headers or trailers of a call: ordered, multi-valued, with lower-case ASCII keys.
 *
 * <p>Keys ending in {@code -bin} carry binary values (base64 on the wire); all other keys carry
 * printable ASCII strings. Keys are lower-cased on the way in, as HTTP/2 requires.
 *
 * <p>Not thread-safe: a {@code Metadata} belongs to one call and one thread at a time.
 */
public final class Metadata {

  /** The suffix that marks a key as carrying binary values. */
  public static final String BINARY_SUFFIX = "-bin";

  private static final Object[] EMPTY = new Object[0];

  /** Keys and values interleaved: {@code [k0, v0, k1, v1, ...]}; values are String or byte[]. */
  private Object[] entries = EMPTY;

  private int size;

  /**
   * Received headers not yet converted into {@link #entries} (one ASCII key can be read from them as
   * they are); null once converted. Volatile, and converted under the
   * lock: a call's received headers may be read first by two threads at once (its service and a
   * transport's log), which the one-thread rule does not forbid for reads.
   */
  private volatile ReceivedHeaders received;

  public Metadata() {}

  private Metadata(ReceivedHeaders received) {
    this.received = received;
  }

  /**
   * Metadata of the headers a transport received, converted when first read (for transports: see
   * {@link ReceivedHeaders}).
   */
  public static Metadata received(ReceivedHeaders headers) {
    return new Metadata(Objects.requireNonNull(headers, "headers"));
  }

  /**
   * A call's headers as a transport received them, still in its own form: the {@link Metadata} that
   * {@link #received} makes of them converts them when first read, so a call whose headers nobody
   * reads never pays for the conversion, and a look-up of one ASCII key (the server's version and group
   * routing) reads them without converting the rest. Implemented by transports; called on whichever
   * thread first reads the metadata, at most once for {@link #copyTo}.
   */
  public interface ReceivedHeaders {

    /**
     * The last value of application header {@code key} (lower case, not a {@code -bin} key) as received,
     * or null if there is none or the name is reserved.
     */
    String lastValue(String key);

    /** Adds every application header to {@code target}: reserved ones left out, binary ones decoded. */
    void copyTo(Metadata target);
  }

  /** Whether {@code key} names binary values. */
  public static boolean isBinaryKey(String key) {
    return key.endsWith(BINARY_SUFFIX);
  }

  /**
   * Adds an ASCII value.
   *
   * @throws IllegalArgumentException if the key is invalid or ends in {@code -bin}, or the value has a
   *     character outside printable ASCII
   */
  public Metadata put(String key, String value) {
    load();
    key = checkKey(key);
    if (isBinaryKey(key)) {
      throw new IllegalArgumentException("Key " + key + " ends in -bin: use put(String, byte[])");
    }
    checkAsciiValue(key, value);
    append(key, value);
    return this;
  }

  /**
   * Adds a binary value; the array is not copied, so do not change it afterwards.
   *
   * @throws IllegalArgumentException if the key is invalid or does not end in {@code -bin}
   */
  public Metadata put(String key, byte[] value) {
    load();
    key = checkKey(key);
    if (!isBinaryKey(key)) {
      throw new IllegalArgumentException("Binary key " + key + " must end in -bin");
    }
    if (value == null) {
      throw new NullPointerException("value");
    }
    append(key, value);
    return this;
  }

  /** The last ASCII value of {@code key}, or null. */
  public String get(String key) {
    key = lowerCase(key);
    ReceivedHeaders received = this.received;
    if (received != null && !isBinaryKey(key)) {
      String value = received.lastValue(key);
      if (value == null || isPrintableAscii(value)) {
        return value;
      }
      // Not a value put() would take: the converted entries say which one is the last valid.
    }
    load();
    Object value = last(key);
    return value instanceof String ? (String) value : null;
  }

  /** The last binary value of {@code key}, or null. */
  public byte[] getBinary(String key) {
    load();
    Object value = last(lowerCase(key));
    return value instanceof byte[] ? (byte[]) value : null;
  }

  /** Every ASCII value of {@code key}, in order; empty if none. */
  public List<String> getAll(String key) {
    load();
    key = lowerCase(key);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      if (keyAt(i).equals(key) && entries[2 * i + 1] instanceof String) {
        values.add((String) entries[2 * i + 1]);
      }
    }
    return values;
  }

  /** Every binary value of {@code key}, in order; empty if none. */
  public List<byte[]> getAllBinary(String key) {
    load();
    key = lowerCase(key);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      if (keyAt(i).equals(key) && entries[2 * i + 1] instanceof byte[]) {
        values.add((byte[]) entries[2 * i + 1]);
      }
    }
    return values;
  }

  public boolean containsKey(String key) {
    load();
    return last(lowerCase(key)) != null;
  }

  /** Removes every value of {@code key}; returns whether there was any. */
  public boolean removeAll(String key) {
    load();
    key = lowerCase(key);
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (!keyAt(i).equals(key)) {
        entries[2 * kept] = entries[2 * i];
        entries[2 * kept + 1] = entries[2 * i + 1];
        kept++;
      }
    }
    boolean removed = kept != size;
    Arrays.fill(entries, 2 * kept, 2 * size, null);
    size = kept;
    return removed;
  }

  /** The distinct keys, in first-seen order. */
  public Set<String> keys() {
    load();
    Set<String> keys = new LinkedHashSet<>();
    for (int i = 0; i < size; i++) {
      keys.add(keyAt(i));
    }
    return Collections.unmodifiableSet(keys);
  }

  /** Appends every entry of {@code other}. */
  public Metadata merge(Metadata other) {
    load();
    other.load();
    int count = other.size; // fixed first: other may be this
    for (int i = 0; i < count; i++) {
      append(other.keyAt(i), other.entries[2 * i + 1]);
    }
    return this;
  }

  /** The number of entries (values), counting repeated keys once per value. */
  public int size() {
    load();
    return size;
  }

  public boolean isEmpty() {
    load();
    return size == 0;
  }

  /**
   * Visits every entry in order; the value is a {@code String}, or a {@code byte[]} for {@code -bin}
   * keys.
   */
  public void forEach(BiConsumer<String, Object> action) {
    load();
    for (int i = 0; i < size; i++) {
      action.accept(keyAt(i), entries[2 * i + 1]);
    }
  }

  private void load() {
    if (received != null) {
      convert();
    }
  }

  private synchronized void convert() {
    ReceivedHeaders source = received;
    if (source == null) {
      return;
    }
    Metadata converted = new Metadata();
    source.copyTo(converted);
    entries = converted.entries;
    size = converted.size;
    received = null;
  }

  private String keyAt(int i) {
    return (String) entries[2 * i];
  }

  private Object last(String key) {
    for (int i = size - 1; i >= 0; i--) {
      if (keyAt(i).equals(key)) {
        return entries[2 * i + 1];
      }
    }
    return null;
  }

  private void append(String key, Object value) {
    if (2 * size == entries.length) {
      entries = Arrays.copyOf(entries, Math.max(8, entries.length * 2));
    }
    entries[2 * size] = key;
    entries[2 * size + 1] = value;
    size++;
  }

  /** {@code key} in lower case; allocates nothing when it already is. */
  private static String lowerCase(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        return key.toLowerCase(Locale.ROOT);
      }
    }
    return key;
  }

  private static String checkKey(String key) {
    if (key == null) {
      throw new NullPointerException("key");
    }
    if (key.isEmpty()) {
      throw new IllegalArgumentException("Metadata key is empty");
    }
    boolean upper = false;
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        upper = true;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) {
        throw new IllegalArgumentException(
            "Metadata key " + key + " has an invalid character '" + c + "' (allowed: a-z 0-9 - _ .)");
      }
    }
    return upper ? key.toLowerCase(Locale.ROOT) : key;
  }

  private static void checkAsciiValue(String key, String value) {
    if (value == null) {
      throw new NullPointerException("value");
    }
    int bad = firstNonPrintable(value);
    if (bad >= 0) {
      throw new IllegalArgumentException(
          "Value of " + key + " has a character outside printable ASCII at index " + bad
              + "; use a -bin key for binary data");
    }
  }

  private static boolean isPrintableAscii(String value) {
    return firstNonPrintable(value) < 0;
  }

  private static int firstNonPrintable(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    load();
    StringBuilder sb = new StringBuilder("Metadata(");
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        sb.append(',');
      }
      Object value = entries[2 * i + 1];
      sb.append(keyAt(i)).append('=');
      sb.append(value instanceof byte[] ? ((byte[]) value).length + " bytes" : value);
    }
    return sb.append(')').toString();
  }
}
