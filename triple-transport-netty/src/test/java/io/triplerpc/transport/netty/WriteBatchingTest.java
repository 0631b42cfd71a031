package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.WriteStats;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WriteBatchingTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  @Test
  void concurrentCallsOnOneConnectionShareFlushes() throws Exception {
    // Windows that never grow: no window measurement's PING, a command of the queue too, joins the count.
    EchoService echo = fixture.newClient(b -> b.maxWindowSize(1 << 20)).proxy(EchoService.class);
    echo.echo(EchoRequest.getDefaultInstance());
    WriteStats before = fixture.client().writeStats();

    int calls = 64;
    ExecutorService threads = Executors.newFixedThreadPool(calls);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<CompletableFuture<String>> results = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        String message = "call-" + i;
        results.add(CompletableFuture.supplyAsync(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return echo.echo(EchoRequest.newBuilder().setMessage(message).build()).getMessage();
        }, threads));
      }
      start.countDown();
      for (int i = 0; i < calls; i++) {
        assertEquals("call-" + i, results.get(i).get(20, TimeUnit.SECONDS));
      }
    } finally {
      threads.shutdownNow();
    }

    WriteStats after = fixture.client().writeStats();
    long commands = after.commands() - before.commands();
    long flushes = after.flushes() - before.flushes();
    // Each call queues two commands (create stream with headers, data with END_STREAM).
    assertEquals(2L * calls, commands);
    assertTrue(flushes < calls, "flushes " + flushes + " for " + calls + " calls: writes were not batched");
  }
}
