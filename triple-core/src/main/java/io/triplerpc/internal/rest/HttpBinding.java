package io.triplerpc.internal.rest;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.netty.util.AsciiString;
import io.triplerpc.serialization.MessageCodec;
import java.util.List;

/**
 * One HTTP binding of a method: its {@code google.api.http} rule or one of the rule's
 * {@code additional_bindings}. Immutable.
 *
 * @param httpMethod GET, PUT, POST, DELETE, PATCH or a custom one, upper case
 * @param template the path it serves
 * @param body null for none, {@code *} for the whole request, or the top-level field the body holds
 * @param responseBody null for the whole response, or the response field the body holds
 * @param rpcPath the method's gRPC path, {@code /package.Service/Method}
 * @param request the request type's default instance, whose builders the transcoder fills
 * @param response the response type's default instance
 * @param boundByPathOrBody the field paths that query parameters may not set (the path's variables and
 *     the body's field)
 * @param json the JSON forms of the messages
 * @param responseCodec writes the response (or its response body field) as JSON
 */
public record HttpBinding(String httpMethod, PathTemplate template, String body, String responseBody, AsciiString rpcPath,
    Message request, Message response, List<String> boundByPathOrBody, RestJson json,
    MessageCodec<Object> responseCodec) {

  /** The request field the body holds, or null for none or the whole request. */
  FieldDescriptor bodyField() {
    return body == null || body.equals("*") ? null : request.getDescriptorForType().findFieldByName(body);
  }

  Descriptor requestType() {
    return request.getDescriptorForType();
  }

  @Override
  public String toString() {
    return httpMethod + " " + template + " -> " + rpcPath;
  }
}
