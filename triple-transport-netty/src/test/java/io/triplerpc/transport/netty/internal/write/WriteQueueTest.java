package io.triplerpc.transport.netty.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalChannel;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteQueue} alone, on an {@link EmbeddedChannel} whose pipeline records what reaches it:
 * commands wait for the connection, leave in order, flush in batches, and fail cleanly when the
 * connection is gone.
 */
class WriteQueueTest {

  private final Recorder recorder = new Recorder();
  private final EmbeddedChannel channel = new EmbeddedChannel(recorder);
  private final WriteQueue queue = new WriteQueue(channel);

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  @Test
  void commandsWaitForTheConnectionThenLeaveInOrderWithOneFlush() {
    Stream stream = new Stream(1);
    queue.enqueue(new SendPingCommand(1), true);
    queue.enqueue(new SendPingCommand(2), false);
    queue.enqueue(new CancelStreamCommand(stream, Status.CANCELLED), true);
    channel.runPendingTasks();
    assertTrue(recorder.events.isEmpty(), "nothing before the connection is ready");

    queue.markReady();
    channel.runPendingTasks();
    assertEquals(withFlushes("ping 1", "ping 2", "cancel 1"), recorder.events);
    assertEquals(3, queue.commandsWritten());
    assertEquals(flushesFor(3), queue.flushes());
  }

  @Test
  void aLongDrainFlushesEveryBatchAndOnceAtTheEnd() {
    queue.markReady();
    channel.runPendingTasks();
    int commands = 2 * WriteQueue.FLUSH_EVERY + 44;
    for (int i = 0; i < commands; i++) {
      queue.enqueue(new SendPingCommand(i), false);
    }
    queue.scheduleDrain();
    channel.runPendingTasks();
    assertEquals(commands, queue.commandsWritten());
    assertEquals(flushesFor(commands), queue.flushes());
    List<String> pings = new ArrayList<>();
    for (int i = 0; i < commands; i++) {
      pings.add("ping " + i);
    }
    assertEquals(withFlushes(pings.toArray(new String[0])), recorder.events);
  }

  @Test
  void aCommandQueuedWithoutFlushWaitsForTheNextDrain() {
    queue.markReady();
    channel.runPendingTasks();
    queue.enqueue(new SendPingCommand(7), false);
    channel.runPendingTasks();
    assertTrue(recorder.events.isEmpty());
    queue.enqueue(new SendPingCommand(8), true);
    channel.runPendingTasks();
    assertEquals(withFlushes("ping 7", "ping 8"), recorder.events);
  }

  /**
   * What one drain writes for {@code commands}: a flush after every {@link WriteQueue#FLUSH_EVERY}
   * of them and after the last (every one, when the flush-per-command ablation is on).
   */
  private static List<String> withFlushes(String... commands) {
    List<String> events = new ArrayList<>();
    for (int i = 0; i < commands.length; i++) {
      events.add(commands[i]);
      if ((i + 1) % WriteQueue.FLUSH_EVERY == 0 || i == commands.length - 1) {
        events.add("flush");
      }
    }
    return events;
  }

  private static long flushesFor(int commands) {
    return (commands + WriteQueue.FLUSH_EVERY - 1) / WriteQueue.FLUSH_EVERY;
  }

  @Test
  void aFailedConnectionFailsWhatWaitsAndWhatComesAndReleasesTheirBuffers() {
    Stream stream = new Stream(3);
    ByteBuf waiting = Unpooled.buffer().writeBytes(new byte[] {1, 2, 3});
    queue.enqueue(new SendDataCommand(stream, waiting, false), true);
    IOException lost = new IOException("connection reset");
    queue.markFailed(lost);
    channel.runPendingTasks();
    assertEquals(0, waiting.refCnt(), "the waiting message is released");
    assertEquals(List.of(lost), stream.failures);

    ByteBuf late = Unpooled.buffer().writeBytes(new byte[] {4});
    queue.enqueue(new SendDataCommand(stream, late, true), true);
    channel.runPendingTasks();
    assertEquals(0, late.refCnt());
    assertEquals(List.of(lost, lost), stream.failures);
    assertTrue(recorder.events.isEmpty(), "nothing reached the pipeline");
  }

  @Test
  void aWriteThatFailsInThePipelineFailsItsStream() {
    Stream stream = new Stream(5);
    recorder.failWrites = new IOException("broken pipe");
    queue.markReady();
    queue.enqueue(new CancelStreamCommand(stream, Status.CANCELLED), true);
    channel.runPendingTasks();
    assertEquals(1, stream.failures.size());
    assertSame(recorder.failWrites, stream.failures.get(0));
  }

  @Test
  void commandsTheTerminatedLoopRefusesFailAfterItOnAnotherThreadAndReleaseTheirBuffers() throws Exception {
    DefaultEventLoop loop = new DefaultEventLoop();
    LocalChannel registered = new LocalChannel();
    loop.register(registered).get(10, TimeUnit.SECONDS);
    loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    assertTrue(loop.terminationFuture().await(10, TimeUnit.SECONDS), "the loop terminates");
    WriteQueue refused = new WriteQueue(registered);
    CountDownLatch failed = new CountDownLatch(2);
    Stream stream = new Stream(7) {
      @Override
      public void writeFailed(Throwable cause) {
        threads.add(Thread.currentThread());
        super.writeFailed(cause);
        failed.countDown();
      }
    };
    ByteBuf first = Unpooled.buffer().writeBytes(new byte[] {1});
    ByteBuf second = Unpooled.buffer().writeBytes(new byte[] {2});

    refused.enqueue(new SendDataCommand(stream, first, false), true);
    refused.enqueue(new SendDataCommand(stream, second, true), true);

    assertTrue(failed.await(10, TimeUnit.SECONDS), "both commands fail");
    assertEquals(0, first.refCnt(), "the first message is released");
    assertEquals(0, second.refCnt(), "the second message is released");
    assertEquals(2, stream.failures.size());
    assertTrue(stream.failures.stream().allMatch(RejectedExecutionException.class::isInstance), stream.failures::toString);
    assertTrue(stream.threads.stream().noneMatch(Thread.currentThread()::equals),
        "never on the thread that enqueued: " + stream.threads);
  }

  /** Records each command written and each flush, and completes (or fails) the writes. */
  private static final class Recorder extends ChannelOutboundHandlerAdapter {

    final List<String> events = new ArrayList<>();
    Throwable failWrites;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof SendPingCommand) {
        events.add("ping " + ((SendPingCommand) msg).data());
      } else if (msg instanceof CancelStreamCommand) {
        events.add("cancel " + ((CancelStreamCommand) msg).stream().id());
      } else {
        events.add(msg.getClass().getSimpleName());
      }
      ReferenceCountUtil.release(msg);
      if (failWrites != null) {
        promise.setFailure(failWrites);
      } else {
        promise.setSuccess();
      }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
      events.add("flush");
    }
  }

  /** A stream that records how its commands failed, and on which threads. */
  private static class Stream implements StreamHandle {

    final int id;
    final List<Throwable> failures = new CopyOnWriteArrayList<>();
    final List<Thread> threads = new CopyOnWriteArrayList<>();

    Stream(int id) {
      this.id = id;
    }

    @Override
    public int id() {
      return id;
    }

    @Override
    public void onDataSent(int bytes) {}

    @Override
    public void writeFailed(Throwable cause) {
      failures.add(cause);
    }
  }
}
