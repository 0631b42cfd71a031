package io.triplerpc.transport.netty.internal.server;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

/** Which allocator {@code -Dio.triplerpc.server.allocator} and {@code -Dio.netty.allocator.type} give the server. */
class ServerAllocatorTest {

  @Test
  void unsetTheServerIsPooled() {
    assertSame(PooledByteBufAllocator.DEFAULT, ServerAllocator.choose(null, null));
  }

  @Test
  void nettysOwnChoiceIsFollowedWhenOnlyItIsSet() {
    assertSame(ByteBufAllocator.DEFAULT, ServerAllocator.choose(null, "unpooled"));
  }

  @Test
  void theServersPropertyWinsOverNettys() {
    assertSame(PooledByteBufAllocator.DEFAULT, ServerAllocator.choose("pooled", "adaptive"));
    assertInstanceOf(AdaptiveByteBufAllocator.class, ServerAllocator.choose(" Adaptive ", "pooled"));
    assertSame(ByteBufAllocator.DEFAULT, ServerAllocator.choose("netty", null));
  }

  @Test
  void anUnknownChoiceIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ServerAllocator.choose("jemalloc", null));
  }
}
