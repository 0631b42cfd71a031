package io.triplerpc.internal.rest;

import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.TypeRegistry;
import com.google.protobuf.util.JsonFormat;
import io.triplerpc.internal.reflection.DescriptorIndex;

/**
 * The JSON forms of one binding's messages, as grpc-gateway's default marshaler writes and reads them:
 * protobuf's JSON mapping with lowerCamelCase names, fields without presence written even when they
 * hold their default (0, "", [], {}), unknown fields in a request ignored; an {@code Any} may hold the
 * messages of the request's and response's files and their imports. Immutable; thread-safe.
 */
public final class RestJson {

  final JsonFormat.Parser parser;
  final JsonFormat.Printer printer;

  RestJson(Message request, Message response) {
    TypeRegistry.Builder types = TypeRegistry.newBuilder();
    add(types, request.getDescriptorForType().getFile());
    add(types, response.getDescriptorForType().getFile());
    TypeRegistry registry = types.build();
    this.parser = JsonFormat.parser().ignoringUnknownFields().usingTypeRegistry(registry);
    this.printer = JsonFormat.printer().usingTypeRegistry(registry).alwaysPrintFieldsWithNoPresence()
        .omittingInsignificantWhitespace();
  }

  private static void add(TypeRegistry.Builder types, FileDescriptor file) {
    for (FileDescriptor each : DescriptorIndex.withDependencies(file)) {
      types.add(each.getMessageTypes());
    }
  }
}
