package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.HttpStatusMapping;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The response of a protocol whose messages come in 5-byte envelopes (gRPC, gRPC-Web, Connect
 * streaming): a head with {@code :status} 200 and the protocol's content type, the messages, and the
 * end, in a trailers block or as the body's last envelope.
 */
abstract class EnvelopedClientFraming implements ClientFraming {

  /** The protocol, as the call's errors name it. */
  private final String name;

  EnvelopedClientFraming(String name) {
    this.name = name;
  }

  /**
   * Why a 200 response with {@code contentType} cannot be this protocol's: UNKNOWN for another content
   * type, INTERNAL for this protocol's in another codec than the request's; null when it can.
   */
  abstract Status contentTypeProblem(CharSequence contentType);

  /** The problem of a response in a content type that is not this protocol's. */
  final Status notThisProtocol(CharSequence contentType) {
    return Status.UNKNOWN.withDescription("Response is not " + name + ": content-type " + contentType);
  }

  /**
   * The problem, if any, of {@code contentType} against a protocol whose content types are {@code prefix}
   * followed by {@code +codec} (or nothing, when {@code bareIsProto}: protobuf), for a call in {@code codec}.
   */
  final Status codecProblem(CharSequence contentType, AsciiString prefix, boolean bareIsProto, String codec) {
    int n = prefix.length();
    if (contentType == null || contentType.length() < n
        || !AsciiString.regionMatches(contentType, true, 0, prefix, 0, n)) {
      return notThisProtocol(contentType);
    }
    char next = contentType.length() == n ? ';' : contentType.charAt(n);
    String responseCodec;
    if (next == '+') {
      responseCodec = GrpcHeaders.codecOf(contentType);
    } else if (next == ';' && bareIsProto) {
      responseCodec = "proto";
    } else {
      return notThisProtocol(contentType);
    }
    if (!codec.equals(responseCodec)) {
      return Status.INTERNAL.withDescription(
          "Response is in codec " + responseCodec + ", the request in " + codec + ": content-type " + contentType);
    }
    return null;
  }

  /** The header that names the compression of the response's messages. */
  abstract AsciiString encodingHeader();

  /**
   * Whether a trailers-only answer with {@code contentType} tells how the call ended in its
   * {@code grpc-status} whatever its HTTP status. By default only when it has no valid {@code :status}.
   */
  boolean trailersOnlyWithAnyStatus(CharSequence contentType) {
    return false;
  }

  /** The response's head arrived, with messages to follow; framings that need it later keep it. */
  void headRead(Http2Headers headers, Metadata metadata, MessageEncoding encoding) {}

  @Override
  public final void headersRead(Http2Headers headers, boolean first, boolean endOfStream, CallEvents call) {
    if (!first) {
      if (!endOfStream) {
        call.fail(Status.INTERNAL.withDescription("Server sent a second header block without END_STREAM"));
        return;
      }
      trailersRead(headers, call);
      return;
    }
    Status problem = checkHead(headers, endOfStream);
    if (problem != null) {
      call.fail(problem);
      return;
    }
    if (endOfStream) {
      trailersRead(headers, call);
      return;
    }
    MessageEncoding encoding;
    try {
      encoding = MessageEncoding.forName(headers.get(encodingHeader()));
    } catch (IllegalArgumentException e) {
      call.fail(Status.INTERNAL.withDescription("Server responded with " + e.getMessage()));
      return;
    }
    Metadata metadata = GrpcHttp2Headers.lazyMetadata(headers);
    headRead(headers, metadata, encoding);
    call.headers(metadata, encoding);
  }

  /** A trailers block (or a trailers-only head): the call ends with its {@code grpc-status}. */
  private static void trailersRead(Http2Headers headers, CallEvents call) {
    Status status = GrpcHttp2Headers.statusOf(headers);
    if (status == null) {
      status = Status.UNKNOWN.withDescription("Server ended the call without grpc-status");
    }
    call.trailers(status, GrpcHttp2Headers.lazyMetadata(headers));
  }

  /** Why the response's head cannot start this protocol's response, or null when it can. */
  private Status checkHead(Http2Headers headers, boolean endOfStream) {
    CharSequence httpStatus = headers.status();
    int code;
    try {
      code = httpStatus == null ? -1 : Integer.parseInt(httpStatus.toString());
    } catch (NumberFormatException e) {
      code = -1;
    }
    CharSequence contentType = headers.get(GrpcHeaders.CONTENT_TYPE);
    if (code != 200) {
      Status grpc = endOfStream ? GrpcHttp2Headers.statusOf(headers) : null;
      // A trailers-only gRPC answer tells how the call ended in its grpc-status, whatever the HTTP
      // status (grpc-java reads it so; Apache Dubbo 3.3 sends every error as 500 with grpc-status).
      // Without grpc-status, or in another content type, the HTTP status is all there is.
      if (grpc != null && (code == -1 || trailersOnlyWithAnyStatus(contentType))) {
        return null;
      }
      Status status = code == -1
          ? Status.INTERNAL.withDescription("Response has no valid :status: " + httpStatus)
          : HttpStatusMapping.statusForHttp(code);
      return status.augmentDescription("content-type: " + contentType);
    }
    return contentTypeProblem(contentType);
  }

  /** Messages, and with an end frame, the end: the body goes to the deframer. */
  @Override
  public void dataRead(ByteBuf data, boolean endOfStream, CallEvents call) {
    call.framed(data, endOfStream);
  }

  @Override
  public void endedWithoutTrailers(CallEvents call) {
    call.close(Status.INTERNAL.withDescription("Server ended the " + name + " response without trailers"),
        new Metadata());
  }

  /**
   * The text of an end frame, decompressed with {@code encoding} if {@code compressed}; null, the call
   * failed, if it cannot be read. Does not release {@code payload}.
   */
  static String endFrameText(ByteBuf payload, boolean compressed, MessageEncoding encoding, int maxSize,
      CallEvents call) {
    if (!compressed) {
      return payload.toString(StandardCharsets.UTF_8);
    }
    if (encoding == null) {
      call.fail(Status.INTERNAL.withDescription("Compressed gRPC-Web trailers without grpc-encoding"));
      return null;
    }
    try (InputStream in = encoding.decompress(new ByteBufInputStream(payload))) {
      return new String(in.readNBytes(maxSize), StandardCharsets.UTF_8);
    } catch (IOException e) {
      call.fail(Status.INTERNAL.withDescription("Could not decompress the gRPC-Web trailers: " + e));
      return null;
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
