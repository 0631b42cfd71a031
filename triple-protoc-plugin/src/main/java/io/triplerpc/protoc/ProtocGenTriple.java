package io.triplerpc.protoc;

import com.google.protobuf.compiler.PluginProtos.CodeGeneratorRequest;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code protoc-gen-triple}, the protoc plugin: reads protoc's {@code CodeGeneratorRequest} from standard
 * input and writes a {@code CodeGeneratorResponse} holding one {@code @TripleService} interface per proto
 * service to standard output. protoc runs it for {@code --triple_out}; see docs/codegen.md.
 */
public final class ProtocGenTriple {

  private ProtocGenTriple() {}

  /** Runs the plugin on this process's standard input and output. */
  public static void main(String[] args) throws IOException {
    run(System.in, System.out);
  }

  /** Reads one request from {@code in} and writes its response to {@code out}, which it flushes. */
  static void run(InputStream in, OutputStream out) throws IOException {
    CodeGeneratorResponse response = TripleGenerator.generate(CodeGeneratorRequest.parseFrom(in));
    response.writeTo(out);
    out.flush();
  }
}
