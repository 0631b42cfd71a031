package io.triplerpc.transport.netty.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.PercentEncoding;
import io.triplerpc.internal.wire.StatusDetails;
import java.util.Base64;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Converts between application {@link Metadata} and HTTP/2 header blocks, and reads gRPC statuses. */
public final class GrpcHttp2Headers {

  private static final Logger log = LoggerFactory.getLogger(GrpcHttp2Headers.class);
  private static final Base64.Encoder BASE64 = Base64.getEncoder().withoutPadding();
  private static final Base64.Decoder BASE64_DECODER = Base64.getDecoder();
  private static final AsciiString[] STATUS_CODES = new AsciiString[17];

  static {
    for (int i = 0; i < STATUS_CODES.length; i++) {
      STATUS_CODES[i] = AsciiString.cached(Integer.toString(i));
    }
  }

  private GrpcHttp2Headers() {}

  /** Adds {@code metadata} to {@code headers}: binary values base64 without padding. */
  public static void addMetadata(Http2Headers headers, Metadata metadata) {
    addMetadata(headers, metadata, "");
  }

  /** Adds {@code metadata} to {@code headers}, each name after {@code prefix} (Connect's {@code trailer-}). */
  public static void addMetadata(Http2Headers headers, Metadata metadata, String prefix) {
    if (metadata == null || metadata.isEmpty()) {
      return;
    }
    metadata.forEach((key, value) -> {
      if (GrpcHeaders.isReserved(key)) {
        log.debug("Dropping reserved header {} from application metadata", key);
        return;
      }
      AsciiString name = new AsciiString(prefix.isEmpty() ? key : prefix + key);
      if (value instanceof byte[]) {
        headers.add(name, new AsciiString(BASE64.encode((byte[]) value), false));
      } else {
        headers.add(name, (String) value);
      }
    });
  }

  /**
   * The application headers of {@code headers}, as {@link #toMetadata} gives them, converted when first
   * read. {@code headers} must not change afterwards.
   */
  public static Metadata lazyMetadata(Http2Headers headers) {
    return Metadata.received(new Http2ReceivedHeaders(headers));
  }

  /** The application headers of {@code headers}: reserved ones left out, binary ones decoded. */
  public static Metadata toMetadata(Http2Headers headers) {
    Metadata metadata = new Metadata();
    copyMetadata(headers, metadata);
    return metadata;
  }

  private static void copyMetadata(Http2Headers headers, Metadata metadata) {
    for (Map.Entry<CharSequence, CharSequence> entry : headers) {
      CharSequence name = entry.getKey();
      if (GrpcHeaders.isReserved(name)) {
        continue;
      }
      String key = name.toString();
      try {
        if (Metadata.isBinaryKey(key)) {
          for (String part : entry.getValue().toString().split(",")) {
            metadata.put(key, BASE64_DECODER.decode(part.trim()));
          }
        } else {
          metadata.put(key, entry.getValue().toString());
        }
      } catch (IllegalArgumentException e) {
        log.debug("Dropping malformed header {}: {}", key, e.getMessage());
      }
    }
  }

  /** A received header block, read in place until the application needs all of it. */
  private static final class Http2ReceivedHeaders implements Metadata.ReceivedHeaders {

    private final Http2Headers headers;

    Http2ReceivedHeaders(Http2Headers headers) {
      this.headers = headers;
    }

    @Override
    public String lastValue(String key) {
      if (GrpcHeaders.isReserved(key)) {
        return null;
      }
      // The server asks every call for its version and group, which almost no call carries: one hash
      // look-up answers that. It finds every name the pass below would, since received names are lower
      // case (HTTP/2 requires it and Netty's decoder refuses others; an HTTP/1.1 request's are lowered
      // in its conversion) and so is the key.
      if (headers.get(key) == null) {
        return null;
      }
      // A linear pass, as the conversion makes: names are matched ignoring case as put() lower-cases
      // them, and the last one wins.
      CharSequence last = null;
      for (Map.Entry<CharSequence, CharSequence> entry : headers) {
        if (AsciiString.contentEqualsIgnoreCase(entry.getKey(), key)) {
          last = entry.getValue();
        }
      }
      return last == null ? null : last.toString();
    }

    @Override
    public void copyTo(Metadata target) {
      copyMetadata(headers, target);
    }
  }

  /** The {@code grpc-status} value for {@code status}, cached. */
  public static AsciiString statusValue(Status status) {
    return STATUS_CODES[status.code().value()];
  }

  /**
   * Sets {@code grpc-status} and, when there is a description, {@code grpc-message}; when the status
   * has details, {@code grpc-status-details-bin} (in place of one the application put in its trailers).
   */
  public static void addStatus(Http2Headers headers, Status status) {
    headers.set(GrpcHeaders.GRPC_STATUS, statusValue(status));
    if (status.description() != null) {
      headers.set(GrpcHeaders.GRPC_MESSAGE, PercentEncoding.encode(status.description()));
    }
    if (!status.details().isEmpty()) {
      headers.set(GrpcHeaders.GRPC_STATUS_DETAILS_BIN,
          new AsciiString(BASE64.encode(StatusDetails.encode(status)), false));
    }
  }

  /**
   * The status a trailer block carries, or null if it has no {@code grpc-status}.
   */
  public static Status statusOf(Http2Headers trailers) {
    CharSequence code = trailers.get(GrpcHeaders.GRPC_STATUS);
    if (code == null) {
      return null;
    }
    Status status;
    try {
      status = Status.fromCodeValue(Integer.parseInt(code.toString()));
    } catch (NumberFormatException e) {
      return Status.UNKNOWN.withDescription("Malformed grpc-status: " + code);
    }
    CharSequence message = trailers.get(GrpcHeaders.GRPC_MESSAGE);
    if (message != null) {
      status = status.withDescription(PercentEncoding.decode(message));
    }
    CharSequence details = trailers.get(GrpcHeaders.GRPC_STATUS_DETAILS_BIN);
    if (details != null && !status.isOk()) {
      try {
        status = status.withDetails(StatusDetails.decodeDetails(BASE64_DECODER.decode(details.toString())));
      } catch (IllegalArgumentException | InvalidProtocolBufferException e) {
        log.debug("Ignoring malformed grpc-status-details-bin: {}", e.getMessage());
      }
    }
    return status;
  }
}
