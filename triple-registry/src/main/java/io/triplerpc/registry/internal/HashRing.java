package io.triplerpc.registry.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The ring of {@link io.triplerpc.registry.LoadBalancing#CONSISTENT_HASH}, laid out as Dubbo's
 * {@code ConsistentHashLoadBalance} lays out its own, so that a Triple consumer and a Dubbo consumer
 * send the same key to the same instance: each instance {@code host:port} has {@code nodes} points
 * (for {@code i < nodes / 4}, the MD5 digest of the address followed by {@code i} gives four 32-bit
 * little-endian points), and a key (the MD5 of its UTF-8 bytes, its first four bytes) belongs to the
 * first point at or after it, going round. Only the instances next to a joining or leaving one see
 * their keys move: about one key in {@code n + 1} when the ring grows from {@code n} instances.
 *
 * <p>Immutable once built; built again by {@link ServiceDirectory} when its instances change.
 */
final class HashRing {

  /** Dubbo's default {@code hash.nodes}. */
  static final int DEFAULT_NODES = 160;

  private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(HashRing::newMd5);

  /** Sorted; each point's owner is at the same index of {@link #owners}. */
  private final long[] points;
  private final Endpoint[] owners;
  /** What the ring was built from: the directory's groups and how many changes each had seen. */
  final RevisionGroup[] groups;
  private final int[] changes;

  private HashRing(long[] points, Endpoint[] owners, RevisionGroup[] groups, int[] changes) {
    this.points = points;
    this.owners = owners;
    this.groups = groups;
    this.changes = changes;
  }

  /**
   * The ring of the endpoints in {@code groups}, {@code nodes} points each. Each group's change count is
   * read before its endpoints, so a change made meanwhile leaves the ring {@link #isCurrent stale}.
   */
  static HashRing build(RevisionGroup[] groups, int nodes) {
    int[] changes = new int[groups.length];
    int total = 0;
    for (int g = 0; g < groups.length; g++) {
      changes[g] = groups[g].changes();
      total += groups[g].size();
    }
    Endpoint[] endpoints = new Endpoint[total];
    int count = 0;
    for (RevisionGroup group : groups) {
      for (int i = 0, n = group.size(); i < n && count < total; i++) {
        Endpoint e = group.at(i);
        if (e != null) {
          endpoints[count++] = e;
        }
      }
    }
    int digests = Math.max(1, nodes / 4);
    // Point (high 32 bits) and endpoint index (low 32 bits) in one long, the sign bit flipped so that a
    // signed sort orders the unsigned points: one sort orders both.
    long[] placed = new long[count * digests * 4];
    int p = 0;
    MessageDigest md5 = MD5.get();
    for (int e = 0; e < count; e++) {
      String address = endpoints[e].host() + ':' + endpoints[e].port;
      for (int i = 0; i < digests; i++) {
        byte[] digest = digest(md5, address + i);
        for (int h = 0; h < 4; h++) {
          placed[p++] = (point(digest, h) << 32 | e) ^ Long.MIN_VALUE;
        }
      }
    }
    Arrays.sort(placed, 0, p);
    long[] points = new long[p];
    Endpoint[] owners = new Endpoint[p];
    int distinct = 0;
    for (int i = 0; i < p; i++) {
      long entry = placed[i] ^ Long.MIN_VALUE;
      long point = entry >>> 32;
      Endpoint owner = endpoints[(int) entry];
      if (distinct > 0 && points[distinct - 1] == point) {
        // Two instances on one point (rare: 32 bits): the lower address keeps it, on every consumer alike.
        if (address(owner).compareTo(address(owners[distinct - 1])) < 0) {
          owners[distinct - 1] = owner;
        }
        continue;
      }
      points[distinct] = point;
      owners[distinct++] = owner;
    }
    return new HashRing(Arrays.copyOf(points, distinct), Arrays.copyOf(owners, distinct), groups, changes);
  }

  /** Whether the ring still holds exactly the endpoints of {@code current}. */
  boolean isCurrent(RevisionGroup[] current) {
    if (current != groups) {
      return false;
    }
    for (int g = 0; g < groups.length; g++) {
      if (groups[g].changes() != changes[g]) {
        return false;
      }
    }
    return true;
  }

  /** The point of {@code key} on the ring. */
  static long keyPoint(String key) {
    return point(digest(MD5.get(), key), 0);
  }

  int size() {
    return points.length;
  }

  /** The index of the first point at or after {@code point}, going round. */
  int ceiling(long point) {
    int i = Arrays.binarySearch(points, point);
    if (i < 0) {
      i = -i - 1;
    }
    return i == points.length ? 0 : i;
  }

  /** The owner of the point at {@code index} (taken modulo the ring's size). */
  Endpoint ownerAt(int index) {
    return owners[index % owners.length];
  }

  private static String address(Endpoint e) {
    return e.host() + ':' + e.port;
  }

  private static long point(byte[] digest, int number) {
    int at = number * 4;
    return ((long) (digest[at + 3] & 0xFF) << 24)
        | ((long) (digest[at + 2] & 0xFF) << 16)
        | ((long) (digest[at + 1] & 0xFF) << 8)
        | (digest[at] & 0xFF);
  }

  private static byte[] digest(MessageDigest md5, String value) {
    md5.reset();
    return md5.digest(value.getBytes(StandardCharsets.UTF_8));
  }

  private static MessageDigest newMd5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM, which every Java SE must have", e);
    }
  }
}
