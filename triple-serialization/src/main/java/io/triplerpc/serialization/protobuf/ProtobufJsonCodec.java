package io.triplerpc.serialization.protobuf;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.TypeRegistry;
import com.google.protobuf.util.JsonFormat;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Codec of one generated protobuf message type in protobuf's canonical JSON mapping (proto3 JSON):
 * field names in lowerCamelCase on output, either spelling accepted on input, unknown fields rejected.
 * A {@code google.protobuf.Any} in it is written and read as JSON when it holds a message of the
 * type's own .proto file or of one that file imports, directly or not.
 */
final class ProtobufJsonCodec<T> implements MessageCodec<T> {

  static final String SUBTYPE = "json";

  /** The types an {@code Any} may hold, by the file that declares the message type. */
  private static final Map<FileDescriptor, TypeRegistry> REGISTRIES = new ConcurrentHashMap<>();

  private final Class<T> type;
  private final Message defaultInstance;
  private final JsonFormat.Parser parser;
  private final JsonFormat.Printer printer;

  ProtobufJsonCodec(Class<T> type, Message defaultInstance) {
    this.type = type;
    this.defaultInstance = defaultInstance;
    TypeRegistry registry = REGISTRIES.computeIfAbsent(
        defaultInstance.getDescriptorForType().getFile(), ProtobufJsonCodec::registryOf);
    this.parser = JsonFormat.parser().usingTypeRegistry(registry);
    this.printer = JsonFormat.printer().usingTypeRegistry(registry).omittingInsignificantWhitespace();
  }

  /** Every message type of {@code file} and of the files it imports, transitively. */
  private static TypeRegistry registryOf(FileDescriptor file) {
    TypeRegistry.Builder registry = TypeRegistry.newBuilder();
    Set<FileDescriptor> seen = new HashSet<>();
    Deque<FileDescriptor> files = new ArrayDeque<>(List.of(file));
    while (!files.isEmpty()) {
      FileDescriptor next = files.pop();
      if (seen.add(next)) {
        registry.add(next.getMessageTypes());
        files.addAll(next.getDependencies());
      }
    }
    return registry.build();
  }

  @Override
  public String subtype() {
    return SUBTYPE;
  }

  @Override
  public int serializedSize(T value) {
    return -1;
  }

  @Override
  public void write(T value, OutputStream out) throws IOException {
    Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    printer.appendTo((Message) value, writer);
    writer.flush();
  }

  /**
   * Reads one message.
   *
   * @throws MalformedMessageException if the text is not JSON of this message type
   */
  @Override
  public T read(InputStream in) throws IOException {
    Message.Builder builder = defaultInstance.newBuilderForType();
    Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8);
    try {
      parser.merge(reader, builder);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new MalformedMessageException(
          "Malformed JSON for " + defaultInstance.getDescriptorForType().getFullName() + ": " + e.getMessage(), e);
    }
    return type.cast(builder.build());
  }

  @Override
  public String toString() {
    return "ProtobufJsonCodec{" + type.getName() + '}';
  }
}
