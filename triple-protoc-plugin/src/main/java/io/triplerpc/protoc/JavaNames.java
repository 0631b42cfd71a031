package io.triplerpc.protoc;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Java names protoc's Java generator gives to a file's types, so that a generated interface refers
 * to the classes {@code --java_out} writes: the package ({@code java_package}, else the proto package),
 * the file's outer class ({@code java_outer_classname}, else the file name in CamelCase, with
 * {@code OuterClass} appended when a type of the file has that name), and each message either at the
 * top of the package ({@code java_multiple_files = true}) or nested in the outer class.
 */
final class JavaNames {

  /**
   * Java's keywords and literals, which a method may not be named, and {@code yield}, which may not be
   * called unqualified; a trailing underscore escapes them.
   */
  private static final Set<String> RESERVED = Set.of(
      "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
      "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
      "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
      "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
      "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
      "volatile", "while", "true", "false", "null", "_", "yield");

  /** Fully qualified proto type name, with its leading dot ({@code .pkg.Outer.Inner}) → Java class name. */
  private final Map<String, String> classes;

  private JavaNames(Map<String, String> classes) {
    this.classes = classes;
  }

  /** The names of every message and enum declared in {@code files}. */
  static JavaNames of(List<FileDescriptorProto> files) {
    Map<String, String> classes = new HashMap<>();
    for (FileDescriptorProto file : files) {
      String protoPrefix = file.getPackage().isEmpty() ? "." : "." + file.getPackage() + ".";
      String javaPrefix = qualify(javaPackage(file),
          file.getOptions().getJavaMultipleFiles() ? "" : outerClassName(file));
      for (DescriptorProto message : file.getMessageTypeList()) {
        addMessage(classes, message, protoPrefix, javaPrefix);
      }
      for (EnumDescriptorProto e : file.getEnumTypeList()) {
        classes.put(protoPrefix + e.getName(), qualify(javaPrefix, e.getName()));
      }
    }
    return new JavaNames(classes);
  }

  private static void addMessage(Map<String, String> classes, DescriptorProto message, String protoPrefix,
      String javaPrefix) {
    String protoName = protoPrefix + message.getName();
    String javaName = qualify(javaPrefix, message.getName());
    classes.put(protoName, javaName);
    for (DescriptorProto nested : message.getNestedTypeList()) {
      addMessage(classes, nested, protoName + ".", javaName);
    }
    for (EnumDescriptorProto e : message.getEnumTypeList()) {
      classes.put(protoName + "." + e.getName(), qualify(javaName, e.getName()));
    }
  }

  /**
   * The Java class of a message, by the fully qualified name a method descriptor carries
   * ({@code .google.protobuf.Empty}).
   *
   * @throws IllegalArgumentException when no file of the request declares it
   */
  String messageClass(String protoTypeName) {
    String javaName = classes.get(protoTypeName);
    if (javaName == null) {
      throw new IllegalArgumentException("no file of the request declares " + protoTypeName);
    }
    return javaName;
  }

  /** The Java package of {@code file}'s classes: {@code java_package}, else its proto package. */
  static String javaPackage(FileDescriptorProto file) {
    return file.getOptions().hasJavaPackage() ? file.getOptions().getJavaPackage() : file.getPackage();
  }

  /** The fully qualified name of {@code file}'s outer class, the one with {@code getDescriptor()}. */
  static String outerClass(FileDescriptorProto file) {
    return qualify(javaPackage(file), outerClassName(file));
  }

  /**
   * The simple name of {@code file}'s outer class: {@code java_outer_classname}, else the file's base
   * name in CamelCase ({@code hello_world.proto} → {@code HelloWorld}), with {@code OuterClass} appended
   * when a message, enum or service of the file (nested ones included) has that name.
   */
  static String outerClassName(FileDescriptorProto file) {
    if (file.getOptions().hasJavaOuterClassname()) {
      return file.getOptions().getJavaOuterClassname();
    }
    String name = camelCase(baseName(file.getName()), true);
    return declares(file, name) ? name + "OuterClass" : name;
  }

  private static String baseName(String fileName) {
    String base = fileName.substring(fileName.lastIndexOf('/') + 1);
    return base.endsWith(".proto") ? base.substring(0, base.length() - ".proto".length()) : base;
  }

  /** Whether {@code file} declares a service, an enum or a message (nested ones included) named {@code name}. */
  private static boolean declares(FileDescriptorProto file, String name) {
    return file.getServiceList().stream().anyMatch(service -> service.getName().equals(name))
        || declaresEnum(file.getEnumTypeList(), name)
        || file.getMessageTypeList().stream().anyMatch(message -> declares(message, name));
  }

  private static boolean declares(DescriptorProto message, String name) {
    return message.getName().equals(name)
        || declaresEnum(message.getEnumTypeList(), name)
        || message.getNestedTypeList().stream().anyMatch(nested -> declares(nested, name));
  }

  private static boolean declaresEnum(List<EnumDescriptorProto> enums, String name) {
    return enums.stream().anyMatch(e -> e.getName().equals(name));
  }

  /**
   * protoc's CamelCase of a file name: letters and digits kept, every other character dropped and the
   * letter after it (or after a digit) capitalized; the first letter capitalized when {@code capitalizeFirst}.
   */
  static String camelCase(String input, boolean capitalizeFirst) {
    StringBuilder out = new StringBuilder(input.length());
    boolean capitalizeNext = capitalizeFirst;
    for (int i = 0; i < input.length(); i++) {
      char c = input.charAt(i);
      if (c >= 'a' && c <= 'z') {
        out.append(capitalizeNext ? (char) (c - 'a' + 'A') : c);
        capitalizeNext = false;
      } else if (c >= 'A' && c <= 'Z') {
        out.append(i == 0 && !capitalizeNext ? (char) (c - 'A' + 'a') : c);
        capitalizeNext = false;
      } else if (c >= '0' && c <= '9') {
        out.append(c);
        capitalizeNext = true;
      } else {
        capitalizeNext = true;
      }
    }
    return out.toString();
  }

  /**
   * The Java method of an RPC, as grpc-java names its stubs' methods: the first letter in lower case,
   * each underscore dropped and the letter after it capitalized ({@code SayHello} → {@code sayHello},
   * {@code get_user} → {@code getUser}); a Java keyword gets a trailing underscore ({@code New} →
   * {@code new_}).
   */
  static String methodName(String rpcName) {
    StringBuilder out = new StringBuilder(rpcName.length());
    boolean afterUnderscore = false;
    for (int i = 0; i < rpcName.length(); i++) {
      char c = rpcName.charAt(i);
      if (c == '_' && i > 0) {
        afterUnderscore = true;
      } else if (out.length() == 0) {
        out.append(Character.toLowerCase(c));
      } else {
        out.append(afterUnderscore ? Character.toUpperCase(c) : c);
        afterUnderscore = false;
      }
    }
    String name = out.toString();
    return RESERVED.contains(name) ? name + "_" : name;
  }

  /**
   * {@code text} as a Java string literal in ASCII: quotes, backslashes and control characters escaped, other
   * characters past ASCII as {@code \}{@code uXXXX} (the source compiles in any encoding; none of them is one
   * that javac's early translation of such escapes would turn into a line break, quote or backslash).
   */
  static String stringLiteral(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\%03o", (int) c));
          } else if (c < 0x7f) {
            out.append(c);
          } else {
            out.append(String.format("\\u%04x", (int) c));
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static String qualify(String prefix, String name) {
    if (prefix.isEmpty()) {
      return name;
    }
    return name.isEmpty() ? prefix : prefix + "." + name;
  }
}
