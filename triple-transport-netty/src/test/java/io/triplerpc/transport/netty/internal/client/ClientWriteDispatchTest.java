package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client's HTTP/2 handler takes its commands and nothing else: a stray write is refused and released. */
class ClientWriteDispatchTest {

  private EmbeddedClientConnection connection;

  @BeforeEach
  void connect() throws Exception {
    connection = EmbeddedClientConnection.withDefaults();
  }

  @AfterEach
  void close() {
    connection.close();
  }

  @Test
  void aBufferWrittenAroundTheQueueIsRefusedAndReleased() {
    ByteBuf stray = Unpooled.buffer().writeBytes(new byte[] {1, 2, 3});
    ChannelFuture written = connection.server.channel().writeAndFlush(stray);
    assertFalse(written.isSuccess());
    assertInstanceOf(UnsupportedOperationException.class, written.cause());
    assertEquals(0, stray.refCnt(), "the refused buffer is released");
  }

  @Test
  void anObjectThatIsNoCommandIsRefusedAndTheConnectionStaysUp() {
    ChannelFuture written = connection.server.channel().writeAndFlush("not a command");
    assertInstanceOf(UnsupportedOperationException.class, written.cause());
    assertTrue(written.cause().getMessage().contains("java.lang.String"), written.cause().getMessage());
    assertTrue(connection.server.channel().isActive(), "a refused write does not close the connection");
  }
}
