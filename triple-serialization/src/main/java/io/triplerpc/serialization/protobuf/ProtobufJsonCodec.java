package io.triplerpc.serialization.protobuf;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
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

/**
 * Codec of one generated protobuf message type in protobuf's canonical JSON mapping (proto3 JSON):
 * field names in lowerCamelCase on output, either spelling accepted on input, unknown fields rejected.
 */
final class ProtobufJsonCodec<T> implements MessageCodec<T> {

  static final String SUBTYPE = "json";

  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

  private final Class<T> type;
  private final Message defaultInstance;

  ProtobufJsonCodec(Class<T> type, Message defaultInstance) {
    this.type = type;
    this.defaultInstance = defaultInstance;
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
    PRINTER.appendTo((Message) value, writer);
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
      PARSER.merge(reader, builder);
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
