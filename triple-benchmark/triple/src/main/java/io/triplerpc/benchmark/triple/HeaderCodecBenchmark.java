package io.triplerpc.benchmark.triple;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.triplerpc.Metadata;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import io.triplerpc.transport.netty.internal.PerCallHeaders;
import io.triplerpc.transport.netty.internal.client.NettyClientTransport;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A getUser request's header block, with and without a W3C {@code traceparent}: the application's
 * metadata converted and the block HPACK-encoded as a client does, then decoded and the header read as a
 * server does (Netty validating names and values, as Triple's handlers have it). One thread, no network:
 * what carrying a trace context costs on the wire path alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HeaderCodecBenchmark {

  private static final AsciiString PATH = AsciiString.cached("/io.triplerpc.benchmark.UserService/getUser");
  private static final AsciiString AUTHORITY = AsciiString.cached("127.0.0.1:50051");
  private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);
  private static final String TRACE_CONTEXT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";

  /** Whether the request carries a {@code traceparent}. */
  @Param({"false", "true"})
  public boolean traceparent;

  private DefaultHttp2HeadersEncoder encoder;
  private DefaultHttp2HeadersDecoder decoder;

  @Setup
  public void setUp() {
    // As one of Triple's connections: values new on every call stay out of the HPACK table.
    encoder = new DefaultHttp2HeadersEncoder(new PerCallHeaders());
    decoder = new DefaultHttp2HeadersDecoder(true, 8192, -1);
  }

  /** The client's part: metadata made and converted, the block encoded. */
  @Benchmark
  public int encode() throws Http2Exception {
    ByteBuf block = PooledByteBufAllocator.DEFAULT.buffer();
    try {
      encoder.encodeHeaders(1, request(), block);
      return block.readableBytes();
    } finally {
      block.release();
    }
  }

  /** Both parts: encoded, decoded, and the {@code traceparent} read back through the received metadata. */
  @Benchmark
  public String encodeAndDecode() throws Http2Exception {
    ByteBuf block = PooledByteBufAllocator.DEFAULT.buffer();
    try {
      encoder.encodeHeaders(1, request(), block);
      return GrpcHttp2Headers.lazyMetadata(decoder.decodeHeaders(1, block)).get("traceparent");
    } finally {
      block.release();
    }
  }

  private Http2Headers request() {
    Metadata metadata = new Metadata();
    if (traceparent) {
      metadata.put("traceparent", TRACE_CONTEXT);
    }
    // The block a Triple client sends for a gRPC call with a deadline.
    return NettyClientTransport.grpcRequestHeaders(GrpcHeaders.HTTP, AUTHORITY, PATH, metadata, DEADLINE_NANOS);
  }
}
