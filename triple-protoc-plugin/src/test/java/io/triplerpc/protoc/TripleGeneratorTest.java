package io.triplerpc.protoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodOptions;
import com.google.protobuf.DescriptorProtos.MethodOptions.IdempotencyLevel;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceOptions;
import com.google.protobuf.DescriptorProtos.SourceCodeInfo;
import com.google.protobuf.Empty;
import com.google.protobuf.EmptyProto;
import com.google.protobuf.StringValue;
import com.google.protobuf.WrappersProto;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorRequest;
import com.google.protobuf.compiler.PluginProtos.CodeGeneratorResponse;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TripleGeneratorTest {

  private static final String STRING_VALUE = ".google.protobuf.StringValue";
  private static final String EMPTY = ".google.protobuf.Empty";

  @TempDir
  Path dir;

  @Test
  void writesOneInterfaceFilePerServiceInTheJavaPackage() {
    CodeGeneratorResponse response = TripleGenerator.generate(request(greeterFile()));
    assertFalse(response.hasError(), response.getError());
    assertEquals(List.of("com/example/greeter/Greeter.java", "com/example/greeter/Pinger.java"),
        response.getFileList().stream().map(CodeGeneratorResponse.File::getName).collect(Collectors.toList()));
    assertEquals(CodeGeneratorResponse.Feature.FEATURE_PROTO3_OPTIONAL_VALUE
        | CodeGeneratorResponse.Feature.FEATURE_SUPPORTS_EDITIONS_VALUE, response.getSupportedFeatures());
  }

  @Test
  void generatedInterfaceCompilesWithEveryMethodShapeAndItsWireNames() throws Exception {
    Class<?> greeter = compile().loadClass("com.example.greeter.Greeter");
    TripleService service = greeter.getAnnotation(TripleService.class);
    assertEquals("demo.v1.Greeter", service.name());
    assertEquals("com.example.greeter.GreeterProto", service.protoFile().getName());
    assertNotNull(greeter.getAnnotation(Deprecated.class), "the service is deprecated");

    Method sayHello = greeter.getMethod("sayHello", StringValue.class);
    assertTrue(sayHello.isDefault());
    assertEquals(StringValue.class, sayHello.getReturnType());
    assertEquals("SayHello", sayHello.getAnnotation(TripleMethod.class).name());
    assertTrue(sayHello.getAnnotation(TripleMethod.class).idempotent());
    Method sayHelloAsync = greeter.getMethod("sayHelloAsync", StringValue.class);
    assertTrue(sayHelloAsync.isDefault());
    assertEquals(CompletableFuture.class, sayHelloAsync.getReturnType());
    assertEquals("SayHello", sayHelloAsync.getAnnotation(TripleMethod.class).name());

    Method old = greeter.getMethod("new_", Empty.class);
    assertEquals("New", old.getAnnotation(TripleMethod.class).name());
    assertTrue(old.getAnnotation(TripleMethod.class).idempotent(), "IDEMPOTENT is idempotent");
    assertNotNull(old.getAnnotation(Deprecated.class));
    assertFalse(greeter.getMethod("say", StringValue.class).getAnnotation(TripleMethod.class).idempotent());

    Method replies = greeter.getMethod("lotsOfReplies", StringValue.class, StreamObserver.class);
    assertEquals(void.class, replies.getReturnType());
    assertFalse(replies.isDefault());
    Method everyone = greeter.getMethod("greetEveryone", StreamObserver.class);
    assertEquals(StreamObserver.class, everyone.getReturnType());
    assertTrue(everyone.getAnnotation(TripleMethod.class).clientStreaming());
    Method chat = greeter.getMethod("chat", StreamObserver.class);
    assertFalse(chat.getAnnotation(TripleMethod.class).clientStreaming());
    assertEquals("Chat", chat.getAnnotation(TripleMethod.class).name());
    assertEquals(List.of("chat", "greetEveryone", "lotsOfReplies", "new_", "new_Async", "say", "sayAsync",
        "sayHello", "sayHelloAsync"),
        Arrays.stream(greeter.getDeclaredMethods()).map(Method::getName).sorted().collect(Collectors.toList()));
  }

  @Test
  void aServiceOnlyImplementingTheSyncFormAnswersTheAsyncOne() throws Exception {
    Class<?> greeter = compile().loadClass("com.example.greeter.Greeter");
    Object hello = implementing(greeter, Map.of("sayHello",
        args -> StringValue.of("Hello, " + ((StringValue) args[0]).getValue())));
    CompletableFuture<?> answer = (CompletableFuture<?>) greeter.getMethod("sayHelloAsync", StringValue.class)
        .invoke(hello, StringValue.of("Ada"));
    assertEquals(StringValue.of("Hello, Ada"), answer.get(10, TimeUnit.SECONDS));

    StatusException refused = Status.INVALID_ARGUMENT.withDescription("no").asException();
    Object failing = implementing(greeter, Map.of("sayHello", args -> {
      throw refused;
    }));
    CompletableFuture<?> failed = (CompletableFuture<?>) greeter.getMethod("sayHelloAsync", StringValue.class)
        .invoke(failing, StringValue.of("Ada"));
    ExecutionException e = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
    assertSame(refused, e.getCause());
  }

  @Test
  void aServiceOnlyImplementingTheAsyncFormAnswersTheSyncOneAndThrowsItsFailureAsIs() throws Exception {
    Class<?> greeter = compile().loadClass("com.example.greeter.Greeter");
    Object hello = implementing(greeter, Map.of("sayHelloAsync",
        args -> CompletableFuture.supplyAsync(() -> StringValue.of("Hi " + ((StringValue) args[0]).getValue()))));
    assertEquals(StringValue.of("Hi Ada"),
        greeter.getMethod("sayHello", StringValue.class).invoke(hello, StringValue.of("Ada")));

    StatusException refused = Status.NOT_FOUND.asException();
    Object failing = implementing(greeter, Map.of("sayHelloAsync", args -> CompletableFuture.failedFuture(refused)));
    Method sayHello = greeter.getMethod("sayHello", StringValue.class);
    Throwable thrown = assertThrows(Throwable.class, () -> invokeUnwrapped(sayHello, failing));
    assertSame(refused, thrown);

    Exception checked = new IOException("disk");
    Object failingChecked = implementing(greeter, Map.of("sayHelloAsync", args -> CompletableFuture.failedFuture(checked)));
    Throwable wrapped = assertThrows(Throwable.class, () -> invokeUnwrapped(sayHello, failingChecked));
    assertEquals(CompletionException.class, wrapped.getClass());
    assertSame(checked, wrapped.getCause());
  }

  @Test
  void protoCommentsBecomeEscapedJavadoc() {
    String source = TripleGenerator.generate(request(greeterFile())).getFile(0).getContent();
    assertTrue(source.startsWith("// Generated by protoc-gen-triple from demo/greeter.proto. Do not edit.\n"
        + "package com.example.greeter;\n"), source);
    assertTrue(source.contains("/**\n * Greets people &lt;politely&gt; &amp; never ends a comment *&#47; early.\n"
        + " * &#64;author nobody\n *\n * <p>The {@code demo.v1.Greeter} service of {@code demo/greeter.proto}.\n */\n"),
        source);
    assertTrue(source.contains("  /**\n   * Says hello.\n   *\n   * <p>Unary. Implement this or {@link #sayHelloAsync};"),
        source);
  }

  @Test
  void theCommentsOfTheServiceAndOfWhatItCarriesReachItsInterfaceForOpenApi() throws Exception {
    String awkward = "The name: \"shelves/1\" \\u000a stays text, caf\u00e9 \ud83d\udcda,\ttab \u0001";
    FileDescriptorProto library = FileDescriptorProto.newBuilder()
        .setName("demo/library.proto")
        .setPackage("demo.v1")
        .setSyntax("proto3")
        .setOptions(FileOptions.newBuilder().setJavaPackage("com.example.library").setJavaMultipleFiles(true))
        .addMessageType(DescriptorProto.newBuilder().setName("GetBookRequest")
            .addField(field("name", 1, FieldDescriptorProto.Type.TYPE_STRING, null))
            .addField(field("filter", 2, FieldDescriptorProto.Type.TYPE_MESSAGE, ".demo.v1.Filter")))
        .addMessageType(DescriptorProto.newBuilder().setName("Filter")
            .addField(field("kind", 1, FieldDescriptorProto.Type.TYPE_ENUM, ".demo.v1.Filter.Kind"))
            .addEnumType(com.google.protobuf.DescriptorProtos.EnumDescriptorProto.newBuilder().setName("Kind")
                .addValue(com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto.newBuilder()
                    .setName("KIND_UNSPECIFIED").setNumber(0))))
        .addMessageType(DescriptorProto.newBuilder().setName("Book")
            .addField(field("title", 1, FieldDescriptorProto.Type.TYPE_STRING, null)))
        .addMessageType(DescriptorProto.newBuilder().setName("Unused")
            .addField(field("x", 1, FieldDescriptorProto.Type.TYPE_STRING, null)))
        .addService(ServiceDescriptorProto.newBuilder().setName("Library")
            .addMethod(unary("GetBook", ".demo.v1.GetBookRequest", ".demo.v1.Book")))
        .setSourceCodeInfo(SourceCodeInfo.newBuilder()
            .addLocation(comment(List.of(6, 0), " The library.\n", null))
            .addLocation(comment(List.of(6, 0, 2, 0), " Gets a book.\n\n From any shelf.\n", null))
            .addLocation(comment(List.of(4, 0), " Which book.\n", null))
            .addLocation(comment(List.of(4, 0, 2, 0), " " + awkward + "\n", null))
            .addLocation(comment(List.of(4, 1, 2, 0), null, " Only a trailing comment.\n"))
            .addLocation(comment(List.of(4, 1, 4, 0), " The kinds.\n", null))
            .addLocation(comment(List.of(4, 2), "\n\n", null))
            .addLocation(comment(List.of(4, 3), " Never shown: no method carries it.\n", null)))
        .build();
    CodeGeneratorRequest request = CodeGeneratorRequest.newBuilder().addProtoFile(library)
        .addFileToGenerate(library.getName()).build();
    Class<?> service = compile(request, "com.example.library.GetBookRequest", "com.example.library.Book",
        "com.example.library.LibraryOuterClass").loadClass("com.example.library.Library");

    Map<String, String> comments = Arrays.stream(service.getAnnotation(io.triplerpc.ProtoComments.class).value())
        .collect(Collectors.toMap(io.triplerpc.ProtoComments.Comment::element, io.triplerpc.ProtoComments.Comment::text,
            (a, b) -> {
              throw new AssertionError("twice: " + a);
            }, java.util.LinkedHashMap::new));
    Map<String, String> expected = new java.util.LinkedHashMap<>();
    expected.put("demo.v1.Library", "The library.");
    expected.put("demo.v1.Library.GetBook", "Gets a book.\n\nFrom any shelf.");
    expected.put("demo.v1.GetBookRequest", "Which book.");
    expected.put("demo.v1.GetBookRequest.name", awkward);
    expected.put("demo.v1.Filter.kind", "Only a trailing comment.");
    expected.put("demo.v1.Filter.Kind", "The kinds.");
    assertEquals(expected, comments, "the blank comment and the unreachable message's are left out");
  }

  @Test
  void aServiceWithoutCommentsHasNoProtoCommentsAnnotation() {
    String source = TripleGenerator.generate(request(greeterFile())).getFile(1).getContent();
    assertFalse(source.contains("ProtoComments"), source);
  }

  private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type, String typeName) {
    FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL).setJsonName(name);
    return (typeName == null ? field : field.setTypeName(typeName)).build();
  }

  private static SourceCodeInfo.Location comment(List<Integer> path, String leading, String trailing) {
    SourceCodeInfo.Location.Builder location = SourceCodeInfo.Location.newBuilder().addAllPath(path);
    if (leading != null) {
      location.setLeadingComments(leading);
    }
    if (trailing != null) {
      location.setTrailingComments(trailing);
    }
    return location.build();
  }

  @Test
  void messagesInTheSameFileFollowJavaMultipleFilesAndTheOuterClassName() {
    FileDescriptorProto nested = FileDescriptorProto.newBuilder().setName("echo.proto").setPackage("echo")
        .addMessageType(DescriptorProto.newBuilder().setName("Ping")
            .addNestedType(DescriptorProto.newBuilder().setName("Pong")))
        .addService(ServiceDescriptorProto.newBuilder().setName("Echo")
            .addMethod(unary("Echo", ".echo.Ping", ".echo.Ping.Pong")))
        .build();
    String source = TripleGenerator.generate(request(nested)).getFile(0).getContent();
    assertTrue(source.contains("default echo.EchoOuterClass.Ping.Pong echo(echo.EchoOuterClass.Ping request)"), source);
    assertTrue(source.contains("protoFile = echo.EchoOuterClass.class"), source);

    FileDescriptorProto multiple = nested.toBuilder()
        .setOptions(FileOptions.newBuilder().setJavaMultipleFiles(true).setJavaOuterClassname("EchoProto")).build();
    source = TripleGenerator.generate(request(multiple)).getFile(0).getContent();
    assertTrue(source.contains("default echo.Ping.Pong echo(echo.Ping request)"), source);
    assertTrue(source.contains("protoFile = echo.EchoProto.class"), source);
  }

  @Test
  void anRpcNamedLikeAnotherOnesAsyncFormLeavesThatOneAbstractAndAlone() {
    FileDescriptorProto file = FileDescriptorProto.newBuilder().setName("clash.proto").setPackage("clash")
        .addDependency("google/protobuf/wrappers.proto")
        .addService(ServiceDescriptorProto.newBuilder().setName("Clash")
            .addMethod(unary("Get", STRING_VALUE, STRING_VALUE))
            .addMethod(unary("GetAsync", STRING_VALUE, STRING_VALUE)))
        .build();
    String source = TripleGenerator.generate(request(file)).getFile(0).getContent();
    assertTrue(source.contains("  com.google.protobuf.StringValue get(com.google.protobuf.StringValue request);"),
        source);
    assertTrue(source.contains("default com.google.protobuf.StringValue getAsync(com.google.protobuf.StringValue"),
        source);
    assertTrue(source.contains("getAsyncAsync("), source);
  }

  @Test
  void unknownTypesAndOptionsAreErrorsProtocReports() throws IOException {
    FileDescriptorProto broken = FileDescriptorProto.newBuilder().setName("broken.proto")
        .addService(ServiceDescriptorProto.newBuilder().setName("Broken").addMethod(unary("Go", ".nope.Q", ".nope.R")))
        .build();
    assertEquals("no file of the request declares .nope.Q", TripleGenerator.generate(request(broken)).getError());

    FileDescriptorProto twins = FileDescriptorProto.newBuilder().setName("twins.proto").setPackage("twins")
        .addDependency("google/protobuf/empty.proto")
        .addService(ServiceDescriptorProto.newBuilder().setName("Twins")
            .addMethod(unary("Get_User", EMPTY, EMPTY)).addMethod(unary("GetUser", EMPTY, EMPTY)))
        .build();
    assertEquals("RPCs Get_User and GetUser of twins.Twins would both be the Java method getUser",
        TripleGenerator.generate(request(twins)).getError());

    CodeGeneratorRequest withOption = request(greeterFile()).toBuilder().setParameter("lite").build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProtocGenTriple.run(new ByteArrayInputStream(withOption.toByteArray()), out);
    assertEquals("protoc-gen-triple takes no options, but was given \"lite\"",
        CodeGeneratorResponse.parseFrom(out.toByteArray()).getError());
  }

  /** A deprecated, commented service with every RPC shape, over well-known types only, and a second service. */
  private static FileDescriptorProto greeterFile() {
    ServiceDescriptorProto greeter = ServiceDescriptorProto.newBuilder()
        .setName("Greeter")
        .setOptions(ServiceOptions.newBuilder().setDeprecated(true))
        .addMethod(unary("SayHello", STRING_VALUE, STRING_VALUE).toBuilder()
            .setOptions(MethodOptions.newBuilder().setIdempotencyLevel(IdempotencyLevel.NO_SIDE_EFFECTS)))
        .addMethod(unary("say", STRING_VALUE, STRING_VALUE))
        .addMethod(unary("New", EMPTY, EMPTY).toBuilder()
            .setOptions(MethodOptions.newBuilder().setDeprecated(true).setIdempotencyLevel(IdempotencyLevel.IDEMPOTENT)))
        .addMethod(unary("LotsOfReplies", STRING_VALUE, STRING_VALUE).toBuilder().setServerStreaming(true))
        .addMethod(unary("GreetEveryone", STRING_VALUE, STRING_VALUE).toBuilder().setClientStreaming(true))
        .addMethod(unary("Chat", STRING_VALUE, STRING_VALUE).toBuilder().setClientStreaming(true).setServerStreaming(true))
        .build();
    return FileDescriptorProto.newBuilder()
        .setName("demo/greeter.proto")
        .setPackage("demo.v1")
        .setSyntax("proto3")
        .addDependency("google/protobuf/empty.proto")
        .addDependency("google/protobuf/wrappers.proto")
        .setOptions(FileOptions.newBuilder().setJavaPackage("com.example.greeter").setJavaOuterClassname("GreeterProto"))
        .addService(greeter)
        .addService(ServiceDescriptorProto.newBuilder().setName("Pinger").addMethod(unary("Ping", EMPTY, EMPTY)))
        .setSourceCodeInfo(SourceCodeInfo.newBuilder()
            .addLocation(SourceCodeInfo.Location.newBuilder().addAllPath(List.of(6, 0))
                .setLeadingComments(" Greets people <politely> & never ends a comment */ early.\n @author nobody\n"))
            .addLocation(SourceCodeInfo.Location.newBuilder().addAllPath(List.of(6, 0, 2, 0))
                .setLeadingComments(" Says hello.\n")))
        .build();
  }

  private static MethodDescriptorProto unary(String name, String input, String output) {
    return MethodDescriptorProto.newBuilder().setName(name).setInputType(input).setOutputType(output).build();
  }

  private static CodeGeneratorRequest request(FileDescriptorProto file) {
    return CodeGeneratorRequest.newBuilder()
        .addProtoFile(EmptyProto.getDescriptor().toProto())
        .addProtoFile(WrappersProto.getDescriptor().toProto())
        .addProtoFile(file)
        .addFileToGenerate(file.getName())
        .build();
  }

  /** Compiles the greeter file's interfaces, with a stand-in for the outer class protoc's Java generator writes. */
  private ClassLoader compile() throws IOException {
    return compile(request(greeterFile()), "com.example.greeter.GreeterProto");
  }

  /** Compiles the interfaces generated for {@code request}, with empty stand-ins for protoc's Java classes. */
  private ClassLoader compile(CodeGeneratorRequest request, String... standIns) throws IOException {
    Path sources = dir.resolve("src");
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    CodeGeneratorResponse response = TripleGenerator.generate(request);
    assertFalse(response.hasError(), response.getError());
    for (CodeGeneratorResponse.File file : response.getFileList()) {
      Path path = sources.resolve(file.getName());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getContent());
    }
    for (String standIn : standIns) {
      int dot = standIn.lastIndexOf('.');
      Path path = sources.resolve(standIn.replace('.', '/') + ".java");
      Files.createDirectories(path.getParent());
      Files.writeString(path, "package " + standIn.substring(0, dot) + ";\npublic final class "
          + standIn.substring(dot + 1) + " {\n"
          + "  public static com.google.protobuf.Descriptors.FileDescriptor getDescriptor() { return null; }\n}\n");
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> arguments = new java.util.ArrayList<>(List.of("-Xlint:all", "-Werror",
        "-classpath", System.getProperty("java.class.path"), "-d", classes.toString()));
    try (var files = Files.walk(sources)) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(p -> arguments.add(p.toString()));
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int exit = javac.run(null, diagnostics, diagnostics, arguments.toArray(new String[0]));
    assertEquals(0, exit, diagnostics.toString());
    return new java.net.URLClassLoader(new java.net.URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
  }

  /** An instance of {@code service} whose methods in {@code methods} answer as given; the rest run their defaults. */
  private static Object implementing(Class<?> service, Map<String, Answer> methods) {
    InvocationHandler handler = (proxy, method, args) -> {
      Answer answer = methods.get(method.getName());
      if (answer != null) {
        return answer.answer(args);
      }
      if (method.isDefault()) {
        return InvocationHandler.invokeDefault(proxy, method, args);
      }
      throw new UnsupportedOperationException(method.getName());
    };
    return Proxy.newProxyInstance(service.getClassLoader(), new Class<?>[] {service}, handler);
  }

  private static Object invokeUnwrapped(Method method, Object target) throws Throwable {
    try {
      return method.invoke(target, StringValue.of("Ada"));
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private interface Answer {
    Object answer(Object[] args);
  }
}
