package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The access log's line, field by field, from calls made up here; AccessLogEndToEndTest sees real ones. */
class AccessLogTest {

  /** An ended call with the given fields. */
  private record Call(ObservedCall.Kind kind, String method, boolean knownMethod, String target, String protocol,
      SocketAddress peer, int previousAttempts, Status status, long durationNanos, long messagesSent,
      long messagesReceived, long messageBytesSent, long messageBytesReceived) implements ObservedCall {

    @Override
    public long startNanos() {
      return 0;
    }
  }

  private static Call served(String method, boolean known, Status status, long nanos) {
    return new Call(ObservedCall.Kind.SERVER_CALL, method, known, null, "grpc",
        new InetSocketAddress("127.0.0.1", 52114), 0, status, nanos, 1, 1, 18, 12);
  }

  @Test
  void aServerCallIsOneLineOfKeysAndValuesRequestsFirst() {
    assertEquals("call=server protocol=grpc method=pkg.Service/Method status=OK duration_ms=1.204"
            + " peer=127.0.0.1:52114 rcvd_msgs=1 rcvd_bytes=12 sent_msgs=1 sent_bytes=18",
        AccessLog.line(served("pkg.Service/Method", true, Status.OK, 1_204_999)));
  }

  @Test
  void durationsKeepMicrosecondsWithLeadingZeros() {
    assertEquals("duration_ms=0.007", field(AccessLog.line(served("a.B/C", true, Status.OK, 7_000)), "duration_ms"));
    assertEquals("duration_ms=12.050", field(AccessLog.line(served("a.B/C", true, Status.OK, 12_050_000)), "duration_ms"));
    assertEquals("duration_ms=3000.000",
        field(AccessLog.line(served("a.B/C", true, Status.OK, TimeUnit.SECONDS.toNanos(3))), "duration_ms"));
  }

  @Test
  void anAttemptNamesItsTargetAndNumberAndSendsFirst() {
    Call attempt = new Call(ObservedCall.Kind.CLIENT_ATTEMPT, "pkg.Service/Method", true, "127.0.0.1:50051", null,
        new InetSocketAddress("127.0.0.1", 50051), 2, Status.UNAVAILABLE, 310_000, 1, 0, 12, 0);
    assertEquals("call=client_attempt target=127.0.0.1:50051 method=pkg.Service/Method attempt=3 status=UNAVAILABLE"
        + " duration_ms=0.310 peer=127.0.0.1:50051 sent_msgs=1 sent_bytes=12 rcvd_msgs=0 rcvd_bytes=0",
        AccessLog.line(attempt));
  }

  @Test
  void anUnknownMethodCannotBreakTheLine() {
    String line = AccessLog.line(served("x y/\"z\"=\n\u00e9%", false, Status.UNIMPLEMENTED, 1000));
    assertEquals("method=x%20y/%22z%22%3D%0A%C3%A9%25", field(line, "method"));
    assertEquals(10, line.split(" ").length, line);
  }

  @Test
  void anIpv6PeerIsBracketedAndAPeerlessCallHasNone() {
    Call v6 = new Call(ObservedCall.Kind.SERVER_CALL, "a.B/C", true, null, "connect",
        new InetSocketAddress("::1", 8080), 0, Status.OK, 1000, 0, 0, 0, 0);
    assertEquals("peer=[0:0:0:0:0:0:0:1]:8080", field(AccessLog.line(v6), "peer"));
    Call none = new Call(ObservedCall.Kind.SERVER_CALL, "a.B/C", true, null, "connect",
        null, 0, Status.OK, 1000, 0, 0, 0, 0);
    assertEquals("", field(AccessLog.line(none), "peer"));
  }

  @Test
  void theObserverSkipsWholeClientCallsWhoseAttemptsHaveTheirOwnLines() {
    List<String> lines = new ArrayList<>();
    CallObserver observer = AccessLog.observer(lines::add);
    observer.started(served("a.B/C", true, null, 0));
    observer.ended(new Call(ObservedCall.Kind.CLIENT_CALL, "a.B/C", true, "h:1", null, null, 0, Status.OK, 5000,
        0, 0, 0, 0));
    observer.ended(served("a.B/C", true, Status.OK, 5000));
    assertEquals(1, lines.size(), lines.toString());
  }

  /** {@code key=value} of {@code line}, or "" when it has none. */
  private static String field(String line, String key) {
    for (String pair : line.split(" ")) {
      if (pair.startsWith(key + "=")) {
        return pair;
      }
    }
    return "";
  }
}
