package io.triplerpc.protoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.EmptyProto;
import java.util.List;
import org.junit.jupiter.api.Test;

class JavaNamesTest {

  @Test
  void outerClassIsTheFileNameInCamelCase() {
    assertEquals("HelloWorld", JavaNames.outerClassName(file("a/b/hello_world.proto")));
    assertEquals("Greeter2Api", JavaNames.outerClassName(file("greeter2api.proto")));
    assertEquals("FooBarBaz", JavaNames.outerClassName(file("foo-bar.baz.proto")));
    assertEquals("UserService", JavaNames.outerClassName(file("userService.proto")));
  }

  @Test
  void outerClassGetsOuterClassSuffixWhenATypeOfTheFileHasItsName() {
    assertEquals("GreeterOuterClass", JavaNames.outerClassName(file("greeter.proto").toBuilder()
        .addService(ServiceDescriptorProto.newBuilder().setName("Greeter")).build()));
    assertEquals("EchoOuterClass", JavaNames.outerClassName(file("echo.proto").toBuilder()
        .addMessageType(DescriptorProto.newBuilder().setName("Echo")).build()));
    assertEquals("ColorOuterClass", JavaNames.outerClassName(file("color.proto").toBuilder()
        .addEnumType(EnumDescriptorProto.newBuilder().setName("Color")).build()));
    // Nested types count too, as protoc's Java generator checks them.
    assertEquals("InnerOuterClass", JavaNames.outerClassName(file("inner.proto").toBuilder()
        .addMessageType(DescriptorProto.newBuilder().setName("Outer")
            .addNestedType(DescriptorProto.newBuilder().setName("Inner"))).build()));
    // Case matters: a message "greeter" does not clash with "Greeter".
    assertEquals("Greeter", JavaNames.outerClassName(file("greeter.proto").toBuilder()
        .addMessageType(DescriptorProto.newBuilder().setName("greeter")).build()));
  }

  @Test
  void javaOuterClassnameWinsOverTheFileName() {
    FileDescriptorProto file = file("greeter.proto").toBuilder()
        .setPackage("demo")
        .setOptions(FileOptions.newBuilder().setJavaOuterClassname("GreeterProto"))
        .addService(ServiceDescriptorProto.newBuilder().setName("Greeter")).build();
    assertEquals("GreeterProto", JavaNames.outerClassName(file));
    assertEquals("demo.GreeterProto", JavaNames.outerClass(file));
  }

  @Test
  void javaPackageWinsOverTheProtoPackage() {
    assertEquals("demo.v1", JavaNames.javaPackage(file("a.proto").toBuilder().setPackage("demo.v1").build()));
    assertEquals("com.example", JavaNames.javaPackage(file("a.proto").toBuilder().setPackage("demo.v1")
        .setOptions(FileOptions.newBuilder().setJavaPackage("com.example")).build()));
    assertEquals("", JavaNames.javaPackage(file("a.proto")));
    assertEquals("A", JavaNames.outerClass(file("a.proto")));
  }

  @Test
  void messagesAreNestedInTheOuterClassUnlessJavaMultipleFiles() {
    DescriptorProto outer = DescriptorProto.newBuilder().setName("Outer")
        .addNestedType(DescriptorProto.newBuilder().setName("Inner")
            .addNestedType(DescriptorProto.newBuilder().setName("Deepest")))
        .addEnumType(EnumDescriptorProto.newBuilder().setName("Kind"))
        .build();
    FileDescriptorProto nested = file("shapes.proto").toBuilder().setPackage("geo")
        .setOptions(FileOptions.newBuilder().setJavaPackage("com.example.geo"))
        .addMessageType(outer).build();
    FileDescriptorProto flat = file("flat.proto").toBuilder().setPackage("flat")
        .setOptions(FileOptions.newBuilder().setJavaMultipleFiles(true))
        .addMessageType(outer.toBuilder().setName("Top")).build();
    FileDescriptorProto noPackage = file("bare.proto").toBuilder()
        .addMessageType(DescriptorProto.newBuilder().setName("Bare")).build();
    JavaNames names = JavaNames.of(List.of(nested, flat, noPackage));
    assertEquals("com.example.geo.Shapes.Outer", names.messageClass(".geo.Outer"));
    assertEquals("com.example.geo.Shapes.Outer.Inner", names.messageClass(".geo.Outer.Inner"));
    assertEquals("com.example.geo.Shapes.Outer.Inner.Deepest", names.messageClass(".geo.Outer.Inner.Deepest"));
    assertEquals("flat.Top", names.messageClass(".flat.Top"));
    assertEquals("flat.Top.Inner", names.messageClass(".flat.Top.Inner"));
    assertEquals("BareOuterClass.Bare", names.messageClass(".Bare"));
    assertThrows(IllegalArgumentException.class, () -> names.messageClass(".geo.Missing"));
  }

  @Test
  void wellKnownTypesKeepTheirOwnJavaNames() {
    JavaNames names = JavaNames.of(List.of(EmptyProto.getDescriptor().toProto()));
    assertEquals("com.google.protobuf.Empty", names.messageClass(".google.protobuf.Empty"));
    assertEquals("com.google.protobuf.EmptyProto", JavaNames.outerClass(EmptyProto.getDescriptor().toProto()));
  }

  @Test
  void methodsAreLowerCamelCaseAndNeverKeywords() {
    assertEquals("sayHello", JavaNames.methodName("SayHello"));
    assertEquals("getUser", JavaNames.methodName("getUser"));
    assertEquals("getUserById", JavaNames.methodName("get_user_by_id"));
    assertEquals("emptyCall", JavaNames.methodName("EmptyCall"));
    assertEquals("new_", JavaNames.methodName("New"));
    assertEquals("default_", JavaNames.methodName("Default"));
    assertEquals("yield_", JavaNames.methodName("Yield"));
    assertEquals("null_", JavaNames.methodName("Null"));
    assertEquals("newUser", JavaNames.methodName("NewUser"));
    assertEquals("v2Call", JavaNames.methodName("V2Call"));
  }

  private static FileDescriptorProto file(String name) {
    return FileDescriptorProto.newBuilder().setName(name).build();
  }
}
