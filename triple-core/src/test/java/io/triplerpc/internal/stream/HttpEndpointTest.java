package io.triplerpc.internal.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.HttpGetHandler;
import io.triplerpc.Metadata;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An HTTP endpoint's path matching, and the answer it completes with whatever its handler or executor do. */
class HttpEndpointTest {

  private static final HttpGetHandler.Request REQUEST = new HttpGetHandler.Request("/metrics", new Metadata(), null);
  private static final HttpGetHandler OK =
      request -> HttpGetHandler.Response.ok("text/plain", "up".getBytes(StandardCharsets.UTF_8));

  /** Runs tasks when asked to, on the test's thread. */
  private static final class QueuedExecutor implements Executor {
    final List<Runnable> tasks = new ArrayList<>();

    @Override
    public void execute(Runnable task) {
      tasks.add(task);
    }
  }

  @Test
  void theTargetMustBeThePathAloneOrBeforeAQuery() {
    HttpEndpoint endpoint = new HttpEndpoint("/metrics", OK, Runnable::run);
    for (String target : List.of("/metrics", "/metrics?", "/metrics?name[]=up")) {
      assertTrue(endpoint.matches(target), target);
    }
    for (String target : List.of("/metric", "/metrics/", "/metricsx", "/Metrics", "metrics", "/", "", "/x/metrics")) {
      assertFalse(endpoint.matches(target), target);
    }
  }

  @Test
  void theHandlerRunsOnTheExecutorNotTheCaller() throws Exception {
    QueuedExecutor executor = new QueuedExecutor();
    var answer = new HttpEndpoint("/metrics", OK, executor).get(REQUEST);
    assertFalse(answer.isDone(), "nothing ran on the caller's thread");
    executor.tasks.get(0).run();
    HttpGetHandler.Response response = answer.get(1, TimeUnit.SECONDS);
    assertEquals(200, response.status());
    assertEquals("up", new String(response.body(), StandardCharsets.UTF_8));
  }

  @Test
  void aFailedOrNullAnswerIs500AndARefusedTask503() throws Exception {
    HttpGetHandler throwing = request -> {
      throw new IllegalStateException("detail the client must not see");
    };
    HttpGetHandler.Response failed = new HttpEndpoint("/metrics", throwing, Runnable::run).get(REQUEST).get();
    assertEquals(500, failed.status());
    assertEquals("The handler of /metrics failed\n", new String(failed.body(), StandardCharsets.UTF_8));
    assertEquals(500, new HttpEndpoint("/metrics", request -> null, Runnable::run).get(REQUEST).get().status());
    Executor refusing = task -> {
      throw new RejectedExecutionException("shut down");
    };
    assertEquals(503, new HttpEndpoint("/metrics", OK, refusing).get(REQUEST).get().status());
  }

  @Test
  void anErrorStillAnswersAndReachesTheExecutorsThread() throws Exception {
    QueuedExecutor executor = new QueuedExecutor();
    AssertionError error = new AssertionError("an Error, not an Exception");
    var answer = new HttpEndpoint("/metrics", request -> {
      throw error;
    }, executor).get(REQUEST);
    assertSame(error, assertThrows(AssertionError.class, () -> executor.tasks.get(0).run()));
    assertEquals(500, answer.get(1, TimeUnit.SECONDS).status());
  }

  @Test
  void responsesKeepToRealStatusCodes() {
    assertThrows(IllegalArgumentException.class, () -> new HttpGetHandler.Response(101, "text/plain", new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> new HttpGetHandler.Response(600, "text/plain", new byte[0]));
    assertThrows(NullPointerException.class, () -> new HttpGetHandler.Response(200, null, new byte[0]));
  }
}
