package io.triplerpc.internal.rest;

import com.google.api.AnnotationsProto;
import com.google.api.HttpRule;
import com.google.protobuf.DescriptorProtos.MethodOptions;
import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code google.api.http} rules from method descriptors. Loaded only when
 * {@code proto-google-common-protos} is on the class path, which a .proto that imports
 * {@code google/api/annotations.proto} needs anyway.
 */
final class HttpRules {

  private HttpRules() {}

  /** A rule flattened: its own binding first, then its additional bindings. */
  record Rule(String httpMethod, String path, String body, String responseBody) {}

  /**
   * The method's rule and its additional bindings, or an empty list for none.
   *
   * @throws IllegalArgumentException if the option is there but malformed
   */
  static List<Rule> of(Descriptors.MethodDescriptor method) {
    HttpRule rule = ruleOf(method.getOptions());
    if (rule == null) {
      return List.of();
    }
    List<Rule> rules = new ArrayList<>();
    rules.add(flatten(rule, method));
    for (HttpRule additional : rule.getAdditionalBindingsList()) {
      if (additional.getAdditionalBindingsCount() > 0) {
        throw new IllegalArgumentException(method.getFullName() + ": an additional binding has bindings of its own");
      }
      rules.add(flatten(additional, method));
    }
    return rules;
  }

  /** The option as an extension (descriptors built with it registered) or, else, as its unknown field. */
  private static HttpRule ruleOf(MethodOptions options) {
    if (options.hasExtension(AnnotationsProto.http)) {
      return options.getExtension(AnnotationsProto.http);
    }
    UnknownFieldSet.Field unknown = options.getUnknownFields().getField(AnnotationsProto.HTTP_FIELD_NUMBER);
    if (unknown == null || unknown.getLengthDelimitedList().isEmpty()) {
      return null;
    }
    List<com.google.protobuf.ByteString> values = unknown.getLengthDelimitedList();
    try {
      return HttpRule.parseFrom(values.get(values.size() - 1));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Malformed google.api.http option: " + e.getMessage(), e);
    }
  }

  private static Rule flatten(HttpRule rule, Descriptors.MethodDescriptor method) {
    String httpMethod;
    String path;
    switch (rule.getPatternCase()) {
      case GET -> {
        httpMethod = "GET";
        path = rule.getGet();
      }
      case PUT -> {
        httpMethod = "PUT";
        path = rule.getPut();
      }
      case POST -> {
        httpMethod = "POST";
        path = rule.getPost();
      }
      case DELETE -> {
        httpMethod = "DELETE";
        path = rule.getDelete();
      }
      case PATCH -> {
        httpMethod = "PATCH";
        path = rule.getPatch();
      }
      case CUSTOM -> {
        httpMethod = rule.getCustom().getKind().toUpperCase(java.util.Locale.ROOT);
        path = rule.getCustom().getPath();
      }
      default -> throw new IllegalArgumentException(method.getFullName() + ": a google.api.http rule without a pattern");
    }
    return new Rule(httpMethod, path, rule.getBody().isEmpty() ? null : rule.getBody(),
        rule.getResponseBody().isEmpty() ? null : rule.getResponseBody());
  }
}
