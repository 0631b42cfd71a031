package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Locale;

/**
 * The buffer allocator of every server's connections, chosen once per JVM (docs/operations.md, "The
 * buffer allocator"). {@code -Dio.triplerpc.server.allocator=pooled|adaptive|netty} chooses: Netty's
 * pooled allocator ({@code PooledByteBufAllocator.DEFAULT}), which frees a chunk once its last buffer
 * is released; Netty 4.2's adaptive one, which keeps the chunks it made for later, up to a bound that
 * grows with the cores, and only looks at them again when it allocates; or whatever Netty's own default
 * is ({@code ByteBufAllocator.DEFAULT}, which follows {@code -Dio.netty.allocator.type}). Unset, the
 * server follows {@code io.netty.allocator.type} if that is set, and otherwise is pooled
 * ({@link #DEFAULT_CHOICE}): memory that clients which never read made a server take goes back once
 * they are gone. Clients always use Netty's default.
 */
public final class ServerAllocator {

  /** The system property that chooses the server's allocator. */
  public static final String PROPERTY = "io.triplerpc.server.allocator";

  /** The choice when neither {@link #PROPERTY} nor {@code io.netty.allocator.type} is set. */
  static final String DEFAULT_CHOICE = "pooled";

  private static final ByteBufAllocator ALLOCATOR = choose(
      System.getProperty(PROPERTY), System.getProperty("io.netty.allocator.type"));

  private ServerAllocator() {}

  /** The allocator every server in this JVM gives its connections. */
  public static ByteBufAllocator get() {
    return ALLOCATOR;
  }

  static ByteBufAllocator choose(String choice, String nettyType) {
    String name = choice != null ? choice.trim().toLowerCase(Locale.ROOT) : nettyType != null ? "netty" : DEFAULT_CHOICE;
    switch (name) {
      case "pooled":
        return PooledByteBufAllocator.DEFAULT;
      case "adaptive":
        return ByteBufAllocator.DEFAULT instanceof AdaptiveByteBufAllocator ? ByteBufAllocator.DEFAULT
            : new AdaptiveByteBufAllocator();
      case "netty":
        return ByteBufAllocator.DEFAULT;
      default:
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + choice + ": expected pooled, adaptive or netty");
    }
  }
}
