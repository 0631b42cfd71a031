package io.triplerpc.benchmark.triple;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.triplerpc.benchmark.workload.UserFixtures;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.Payload;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * Parsing one protobuf message that arrived in several DATA frames (direct buffers of
 * {@code frameSize} bytes, as a socket read leaves them), three ways: copied into one array first,
 * read in place by protobuf's decoder over the pieces, or read through a stream over them. One
 * thread, no network: the choice MessageCodecs makes for spread messages.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MessageParseBenchmark {

  /** {@code page}: listUserLarge's ~105 KB page of users; {@code bytes-N}: a Payload of N bytes. */
  @Param({"page", "bytes-102400", "bytes-1048576"})
  public String message;

  @Param("16384")
  public int frameSize;

  private ByteBuffer[] frames;
  private byte[] flat;
  private Parser<? extends MessageLite> parser;

  @Setup
  public void split() {
    MessageLite value = message.equals("page")
        ? UserFixtures.listUserLarge(UserFixtures.LIST_USER)
        : UserFixtures.payload(Integer.parseInt(message.substring("bytes-".length())));
    parser = value instanceof Page ? Page.parser() : Payload.parser();
    byte[] bytes = value.toByteArray();
    List<ByteBuffer> pieces = new ArrayList<>();
    for (int offset = 0; offset < bytes.length; offset += frameSize) {
      int length = Math.min(frameSize, bytes.length - offset);
      pieces.add(ByteBuffer.allocateDirect(length).put(bytes, offset, length).flip());
    }
    frames = pieces.toArray(new ByteBuffer[0]);
    flat = new byte[bytes.length];
  }

  /** What a pooled flat copy costs: the copy, then protobuf's array decoder. */
  @Benchmark
  public Object flatCopy() throws IOException {
    int offset = 0;
    for (ByteBuffer frame : frames) {
      int length = frame.remaining();
      frame.duplicate().get(flat, offset, length);
      offset += length;
    }
    return parse(CodedInputStream.newInstance(flat, 0, offset));
  }

  /** Protobuf's decoder over the direct pieces, in place. */
  @Benchmark
  public Object inPlace() throws IOException {
    List<ByteBuffer> pieces = new ArrayList<>(frames.length);
    for (ByteBuffer frame : frames) {
      pieces.add(frame.duplicate());
    }
    return parse(CodedInputStream.newInstance(pieces));
  }

  /** Protobuf's stream decoder over the pieces. */
  @Benchmark
  public Object stream() throws IOException {
    List<InputStream> streams = new ArrayList<>(frames.length);
    for (ByteBuffer frame : frames) {
      ByteBuffer piece = frame.duplicate();
      streams.add(new InputStream() {
        @Override
        public int read() {
          return piece.hasRemaining() ? piece.get() & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
          if (!piece.hasRemaining()) {
            return -1;
          }
          int n = Math.min(len, piece.remaining());
          piece.get(b, off, n);
          return n;
        }
      });
    }
    return parse(CodedInputStream.newInstance(new SequenceInputStream(Collections.enumeration(streams))));
  }

  private Object parse(CodedInputStream input) throws IOException {
    input.setSizeLimit(Integer.MAX_VALUE);
    return parser.parseFrom(input, ExtensionRegistryLite.getEmptyRegistry());
  }
}
