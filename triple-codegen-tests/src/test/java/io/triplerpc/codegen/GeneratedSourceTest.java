package io.triplerpc.codegen;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleMethod;
import io.triplerpc.codegen.everything.Everything;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What protobuf-maven-plugin had protoc-gen-triple write in this build: Javadoc, annotations. */
class GeneratedSourceTest {

  private static final Path GENERATED = Path.of("target/generated-test-sources/protobuf");

  @Test
  void protoCommentsAreTheInterfacesJavadocEscaped() throws Exception {
    String source = Files.readString(GENERATED.resolve("io/triplerpc/codegen/everything/Everything.java"));
    assertTrue(source.contains("/**\n * Echoes what it is given, in every way an RPC can.\n *\n"
        + " * A &lt;b&gt;bold&lt;/b&gt; claim &amp; an &#64;annotation *&#47; that must stay text.\n"), source);
    assertTrue(source.contains("  /**\n   * Answers the request back, with what the server saw.\n"), source);
    assertTrue(source.contains("@javax.annotation.processing.Generated(\"protoc-gen-triple\")"), source);
  }

  @Test
  void optionsBecomeAnnotations() throws Exception {
    assertTrue(Everything.class.getMethod("echo", io.triplerpc.codegen.everything.EchoRequest.class)
        .getAnnotation(TripleMethod.class).idempotent());
    assertTrue(Everything.class.getMethod("now", com.google.protobuf.Empty.class)
        .getAnnotation(TripleMethod.class).idempotent());
    assertNotNull(Everything.class.getMethod("oldEcho", com.google.protobuf.StringValue.class)
        .getAnnotation(Deprecated.class));
    assertTrue(Everything.class.getMethod("sum", io.triplerpc.StreamObserver.class)
        .getAnnotation(TripleMethod.class).clientStreaming());
  }
}
