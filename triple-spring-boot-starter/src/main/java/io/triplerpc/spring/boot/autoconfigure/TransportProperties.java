package io.triplerpc.spring.boot.autoconfigure;

import io.triplerpc.TransportBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.util.unit.DataSize;

/**
 * The settings a Triple server ({@code triple.server.*}) and its clients ({@code triple.client.*}) share,
 * as {@link TransportBuilder} declares them. Each is unset by default, and then the builder's default
 * holds: the starter states none of its own. A value the builder refuses stops the start-up with the
 * property's name and the builder's reason.
 */
public abstract class TransportProperties {

  /** Largest message accepted from the peer; larger ones fail with RESOURCE_EXHAUSTED. Triple's 4MB when unset. */
  private DataSize maxInboundMessageSize;

  /** Largest header block accepted from the peer. Triple's 8KB when unset. */
  private DataSize maxHeaderListSize;

  /** HTTP/2 flow-control window each stream and connection start with. Triple's 1MB when unset. */
  private DataSize initialWindowSize;

  /** Largest the flow-control windows grow to as the connection's bandwidth-delay product asks. Triple's 8MB when unset. */
  private DataSize maxWindowSize;

  /** Bytes a connection may hold that its peer has not taken before the call is reset. Triple's 64MB when unset. */
  private DataSize maxPendingOutboundBytes;

  /** Time without reads after which a keepalive PING goes out. Triple's when unset: 2h on a server, none on a client. */
  private Duration keepAliveTime;

  /** How long a keepalive PING may go unanswered before the connection closes. Triple's 20s when unset. */
  private Duration keepAliveTimeout;

  /** Event loop threads of the server's or the clients' own; 0 (Triple's when unset) for one per core, shared by clients. */
  private Integer ioThreads;

  /**
   * Whether the application's code of each call (a server's service methods, a client's callbacks) runs on a
   * virtual thread of its own. Java 21 or later: on Java 17 the application does not start. Triple's pool when unset.
   */
  private Boolean virtualThreads;

  /** Classes (or package prefixes ending with a dot) that plain Java messages from the peer may hold beyond their signatures. */
  private final List<String> allowDeserialization = new ArrayList<>();

  public DataSize getMaxInboundMessageSize() {
    return maxInboundMessageSize;
  }

  public void setMaxInboundMessageSize(DataSize maxInboundMessageSize) {
    this.maxInboundMessageSize = maxInboundMessageSize;
  }

  public DataSize getMaxHeaderListSize() {
    return maxHeaderListSize;
  }

  public void setMaxHeaderListSize(DataSize maxHeaderListSize) {
    this.maxHeaderListSize = maxHeaderListSize;
  }

  public DataSize getInitialWindowSize() {
    return initialWindowSize;
  }

  public void setInitialWindowSize(DataSize initialWindowSize) {
    this.initialWindowSize = initialWindowSize;
  }

  public DataSize getMaxWindowSize() {
    return maxWindowSize;
  }

  public void setMaxWindowSize(DataSize maxWindowSize) {
    this.maxWindowSize = maxWindowSize;
  }

  public DataSize getMaxPendingOutboundBytes() {
    return maxPendingOutboundBytes;
  }

  public void setMaxPendingOutboundBytes(DataSize maxPendingOutboundBytes) {
    this.maxPendingOutboundBytes = maxPendingOutboundBytes;
  }

  public Duration getKeepAliveTime() {
    return keepAliveTime;
  }

  public void setKeepAliveTime(Duration keepAliveTime) {
    this.keepAliveTime = keepAliveTime;
  }

  public Duration getKeepAliveTimeout() {
    return keepAliveTimeout;
  }

  public void setKeepAliveTimeout(Duration keepAliveTimeout) {
    this.keepAliveTimeout = keepAliveTimeout;
  }

  public Integer getIoThreads() {
    return ioThreads;
  }

  public void setIoThreads(Integer ioThreads) {
    this.ioThreads = ioThreads;
  }

  public Boolean getVirtualThreads() {
    return virtualThreads;
  }

  public void setVirtualThreads(Boolean virtualThreads) {
    this.virtualThreads = virtualThreads;
  }

  public List<String> getAllowDeserialization() {
    return allowDeserialization;
  }

  /**
   * Hands what is set to {@code builder}.
   *
   * @param prefix the properties' prefix, such as {@code triple.server}, for messages
   * @throws IllegalStateException naming the property, if the builder refuses its value
   */
  void applyTo(TransportBuilder<?> builder, String prefix) {
    set(prefix + ".max-inbound-message-size", maxInboundMessageSize, size -> builder.maxInboundMessageSize(intBytes(size)));
    set(prefix + ".max-header-list-size", maxHeaderListSize, size -> builder.maxHeaderListSize(intBytes(size)));
    set(prefix + ".initial-window-size", initialWindowSize, size -> builder.initialWindowSize(intBytes(size)));
    set(prefix + ".max-window-size", maxWindowSize, size -> builder.maxWindowSize(intBytes(size)));
    set(prefix + ".max-pending-outbound-bytes", maxPendingOutboundBytes,
        size -> builder.maxPendingOutboundBytes(size.toBytes()));
    set(prefix + ".keep-alive-time", keepAliveTime, builder::keepAliveTime);
    set(prefix + ".keep-alive-timeout", keepAliveTimeout, builder::keepAliveTimeout);
    set(prefix + ".io-threads", ioThreads, builder::ioThreads);
    if (Boolean.TRUE.equals(virtualThreads)) {
      try {
        builder.virtualThreads();
      } catch (UnsupportedOperationException e) {
        throw new IllegalStateException(prefix + ".virtual-threads: " + e.getMessage(), e);
      }
    }
    if (!allowDeserialization.isEmpty()) {
      set(prefix + ".allow-deserialization", allowDeserialization,
          entries -> builder.allowDeserialization(entries.toArray(String[]::new)));
    }
  }

  /** Calls {@code setter} with {@code value} unless it is unset; a refusal names {@code property}. */
  static <T> void set(String property, T value, Consumer<T> setter) {
    if (value == null) {
      return;
    }
    try {
      setter.accept(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(property + ": " + e.getMessage(), e);
    }
  }

  private static int intBytes(DataSize size) {
    if (size.toBytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("at most 2GB: " + size);
    }
    return (int) size.toBytes();
  }
}
