package io.triplerpc.protoc;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.DescriptorProtos.SourceCodeInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The comments of every declaration in the files protoc sent with their source information (those it asked
 * to generate), by full name, and the ones a service's OpenAPI document needs: its own, its methods', and
 * those of every message and enum its methods carry, through their fields, in whichever of those files.
 */
final class ProtoCommentIndex {

  // SourceCodeInfo path elements: the field numbers of the descriptor protos.
  private static final int FILE_MESSAGE = 4;
  private static final int FILE_ENUM = 5;
  private static final int FILE_SERVICE = 6;
  private static final int MESSAGE_FIELD = 2;
  private static final int MESSAGE_NESTED = 3;
  private static final int MESSAGE_ENUM = 4;
  private static final int SERVICE_METHOD = 2;

  /** Comments by full name (services, methods, messages, fields, enums). */
  private final Map<String, String> comments = new HashMap<>();
  /** Every message of every file, by full name, for walking fields. */
  private final Map<String, DescriptorProto> messages = new HashMap<>();

  private ProtoCommentIndex() {}

  static ProtoCommentIndex of(List<FileDescriptorProto> files) {
    ProtoCommentIndex index = new ProtoCommentIndex();
    for (FileDescriptorProto file : files) {
      index.add(file);
    }
    return index;
  }

  private void add(FileDescriptorProto file) {
    Map<List<Integer>, String> byPath = new HashMap<>();
    for (SourceCodeInfo.Location location : file.getSourceCodeInfo().getLocationList()) {
      String text = location.hasLeadingComments() ? location.getLeadingComments()
          : location.hasTrailingComments() ? location.getTrailingComments() : null;
      String normalized = text == null ? "" : normalize(text);
      if (!normalized.isEmpty()) {
        byPath.put(location.getPathList(), normalized);
      }
    }
    String prefix = file.getPackage().isEmpty() ? "" : file.getPackage() + ".";
    for (int i = 0; i < file.getMessageTypeCount(); i++) {
      addMessage(file.getMessageType(i), prefix, List.of(FILE_MESSAGE, i), byPath);
    }
    for (int i = 0; i < file.getEnumTypeCount(); i++) {
      put(prefix + file.getEnumType(i).getName(), byPath.get(List.of(FILE_ENUM, i)));
    }
    for (int s = 0; s < file.getServiceCount(); s++) {
      ServiceDescriptorProto service = file.getService(s);
      String name = prefix + service.getName();
      put(name, byPath.get(List.of(FILE_SERVICE, s)));
      for (int m = 0; m < service.getMethodCount(); m++) {
        put(name + "." + service.getMethod(m).getName(), byPath.get(List.of(FILE_SERVICE, s, SERVICE_METHOD, m)));
      }
    }
  }

  private void addMessage(DescriptorProto message, String prefix, List<Integer> path,
      Map<List<Integer>, String> byPath) {
    String name = prefix + message.getName();
    messages.put(name, message);
    put(name, byPath.get(path));
    for (int f = 0; f < message.getFieldCount(); f++) {
      put(name + "." + message.getField(f).getName(), byPath.get(append(path, MESSAGE_FIELD, f)));
    }
    for (int n = 0; n < message.getNestedTypeCount(); n++) {
      addMessage(message.getNestedType(n), name + ".", append(path, MESSAGE_NESTED, n), byPath);
    }
    for (int e = 0; e < message.getEnumTypeCount(); e++) {
      EnumDescriptorProto nested = message.getEnumType(e);
      put(name + "." + nested.getName(), byPath.get(append(path, MESSAGE_ENUM, e)));
    }
  }

  private void put(String name, String comment) {
    if (comment != null) {
      comments.put(name, comment);
    }
  }

  private static List<Integer> append(List<Integer> path, int field, int index) {
    List<Integer> longer = new ArrayList<>(path.size() + 2);
    longer.addAll(path);
    longer.add(field);
    longer.add(index);
    return longer;
  }

  /**
   * The comments {@code service}'s document shows, in a stable order: the service, its methods, then each
   * message and enum its methods carry (and their fields), as a walk from the methods' types reaches them.
   */
  Map<String, String> forService(String serviceName, ServiceDescriptorProto service) {
    Map<String, String> chosen = new LinkedHashMap<>();
    copy(serviceName, chosen);
    Deque<String> types = new ArrayDeque<>();
    for (MethodDescriptorProto method : service.getMethodList()) {
      copy(serviceName + "." + method.getName(), chosen);
      types.add(strip(method.getInputType()));
      types.add(strip(method.getOutputType()));
    }
    Set<String> seen = new HashSet<>();
    while (!types.isEmpty()) {
      String type = types.poll();
      if (!seen.add(type)) {
        continue;
      }
      copy(type, chosen);
      DescriptorProto message = messages.get(type);
      if (message == null) {
        continue; // an enum
      }
      for (FieldDescriptorProto field : message.getFieldList()) {
        copy(type + "." + field.getName(), chosen);
        if (field.hasTypeName()) {
          types.add(strip(field.getTypeName()));
        }
      }
    }
    return chosen;
  }

  private void copy(String name, Map<String, String> into) {
    String comment = comments.get(name);
    if (comment != null) {
      into.put(name, comment);
    }
  }

  private static String strip(String typeName) {
    return typeName.startsWith(".") ? typeName.substring(1) : typeName;
  }

  /**
   * A comment as protoc holds it ({@code " Says hello.\n More.\n"}) as text: the one space after each
   * {@code //} dropped, trailing spaces and the blank lines around it gone.
   */
  static String normalize(String comment) {
    List<String> lines = new ArrayList<>();
    for (String line : comment.split("\n", -1)) {
      lines.add((line.startsWith(" ") ? line.substring(1) : line).stripTrailing());
    }
    while (!lines.isEmpty() && lines.get(0).isEmpty()) {
      lines.remove(0);
    }
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return String.join("\n", lines);
  }
}
