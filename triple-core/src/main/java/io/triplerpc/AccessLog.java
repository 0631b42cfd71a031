package io.triplerpc;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An access log: one line per call, as a {@link CallObserver}. Off unless added:
 *
 * <pre>{@code
 * TripleServer.builder().callObserver(AccessLog.observer())...
 * }</pre>
 *
 * <p>A server writes a line for each call it received, served or refused; a client for each attempt
 * (a retried call writes one per attempt). The line is {@code key=value} pairs separated by spaces, in
 * this order, a pair left out where it has no value:
 *
 * <pre>
 * call=server protocol=grpc method=pkg.Service/Method status=OK duration_ms=1.204 peer=127.0.0.1:52114 rcvd_msgs=1 rcvd_bytes=12 sent_msgs=1 sent_bytes=18
 * call=client_attempt target=127.0.0.1:50051 method=pkg.Service/Method attempt=1 status=UNAVAILABLE duration_ms=0.310 peer=127.0.0.1:50051 sent_msgs=1 sent_bytes=12 rcvd_msgs=0 rcvd_bytes=0
 * </pre>
 *
 * <p>{@code status} is the gRPC code's name; {@code duration_ms} has microsecond precision; bytes are
 * the messages' as they went on the wire (compressed if they were), without framing or headers;
 * {@code attempt} counts from 1. A method name a server does not serve is written as the client sent it,
 * with spaces, quotes, backslashes, {@code =}, {@code %} and characters outside printable ASCII
 * percent-encoded (UTF-8), so a line is always one line.
 */
public final class AccessLog {

  /** The SLF4J logger {@link #observer()} writes to, at INFO. */
  public static final String LOGGER_NAME = "io.triplerpc.access";

  private AccessLog() {}

  /**
   * Writes each line to the SLF4J logger {@value #LOGGER_NAME} at INFO; nothing is formatted while that
   * logger is off for INFO.
   */
  public static CallObserver observer() {
    Logger log = LoggerFactory.getLogger(LOGGER_NAME);
    return new CallObserver() {
      @Override
      public void ended(ObservedCall call) {
        if (call.kind() != ObservedCall.Kind.CLIENT_CALL && log.isInfoEnabled()) {
          log.info(line(call));
        }
      }

      @Override
      public String toString() {
        return "AccessLog(" + LOGGER_NAME + ")";
      }
    };
  }

  /** Hands each line to {@code lines} instead (a file, a logger of your own); called on call threads. */
  public static CallObserver observer(Consumer<String> lines) {
    requireNonNull(lines, "lines");
    return new CallObserver() {
      @Override
      public void ended(ObservedCall call) {
        if (call.kind() != ObservedCall.Kind.CLIENT_CALL) {
          lines.accept(line(call));
        }
      }
    };
  }

  /** The line of an ended server call or client attempt, as described above. */
  static String line(ObservedCall call) {
    StringBuilder line = new StringBuilder(192);
    boolean server = call.kind() == ObservedCall.Kind.SERVER_CALL;
    line.append("call=").append(server ? "server" : call.kind() == ObservedCall.Kind.CLIENT_ATTEMPT
        ? "client_attempt" : "client");
    if (call.protocol() != null) {
      line.append(" protocol=").append(call.protocol());
    }
    if (call.target() != null) {
      line.append(" target=");
      appendEscaped(line, call.target());
    }
    line.append(" method=");
    if (call.knownMethod()) {
      line.append(call.method());
    } else {
      appendEscaped(line, call.method());
    }
    if (call.kind() == ObservedCall.Kind.CLIENT_ATTEMPT) {
      line.append(" attempt=").append(call.previousAttempts() + 1);
    }
    Status status = call.status();
    line.append(" status=").append(status == null ? "-" : status.code().name());
    long micros = call.durationNanos() / 1000;
    line.append(" duration_ms=").append(micros / 1000).append('.');
    long fraction = micros % 1000;
    if (fraction < 100) {
      line.append(fraction < 10 ? "00" : "0");
    }
    line.append(fraction);
    if (call.peer() != null) {
      line.append(" peer=");
      appendPeer(line, call.peer());
    }
    // Requests first on a server, as they came first.
    if (server) {
      appendReceived(line, call);
      appendSent(line, call);
    } else {
      appendSent(line, call);
      appendReceived(line, call);
    }
    return line.toString();
  }

  private static void appendSent(StringBuilder line, ObservedCall call) {
    line.append(" sent_msgs=").append(call.messagesSent()).append(" sent_bytes=").append(call.messageBytesSent());
  }

  private static void appendReceived(StringBuilder line, ObservedCall call) {
    line.append(" rcvd_msgs=").append(call.messagesReceived())
        .append(" rcvd_bytes=").append(call.messageBytesReceived());
  }

  /** {@code ip:port} ({@code [ip6]:port}) without the host name lookup {@link InetSocketAddress#toString} shows. */
  private static void appendPeer(StringBuilder line, SocketAddress peer) {
    if (!(peer instanceof InetSocketAddress)) {
      appendEscaped(line, peer.toString());
      return;
    }
    InetSocketAddress address = (InetSocketAddress) peer;
    InetAddress ip = address.getAddress();
    String host = ip != null ? ip.getHostAddress() : address.getHostString();
    if (host.indexOf(':') >= 0) {
      line.append('[').append(host).append(']');
    } else {
      appendEscaped(line, host);
    }
    line.append(':').append(address.getPort());
  }

  /** Percent-encodes what would break a {@code key=value} line or a log file: spaces, quotes, controls, non-ASCII. */
  private static void appendEscaped(StringBuilder line, String value) {
    for (int i = 0; i < value.length(); ) {
      int c = value.codePointAt(i);
      i += Character.charCount(c);
      if (c > ' ' && c < 0x7f && c != '"' && c != '\\' && c != '=' && c != '%') {
        line.append((char) c);
      } else if (c < 0x80) {
        appendPercent(line, c);
      } else {
        for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
          appendPercent(line, b & 0xff);
        }
      }
    }
  }

  private static void appendPercent(StringBuilder line, int b) {
    line.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
  }
}
