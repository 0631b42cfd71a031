package io.triplerpc.serialization.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.AbstractMessage;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.Empty;
import com.google.protobuf.GeneratedMessage;
import com.google.protobuf.Int32Value;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Option;
import com.google.protobuf.SourceContext;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Type;
import com.google.protobuf.Value;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serialization;
import io.triplerpc.serialization.Serializations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProtobufSerializationTest {

  private static final Struct MESSAGE = Struct.newBuilder()
      .putFields("name", Value.newBuilder().setStringValue("Ada").build())
      .putFields("age", Value.newBuilder().setNumberValue(36).build())
      .build();

  private final ProtobufSerialization protobuf = new ProtobufSerialization();

  @Test
  void protobufIsInstalledUnderItsName() {
    assertEquals("protobuf", protobuf.name());
    assertTrue(Serializations.installed().stream().anyMatch(s -> s instanceof ProtobufSerialization));
    assertThrows(UnsupportedOperationException.class, () -> Serializations.installed().add(protobuf));
  }

  @ParameterizedTest
  @ValueSource(classes = {Struct.class, StringValue.class, Int32Value.class, Empty.class, BytesValue.class})
  void generatedMessagesAreSupported(Class<?> type) {
    assertTrue(protobuf.supports(type));
    assertEquals("proto", Serializations.codecFor(type).subtype());
  }

  @ParameterizedTest
  @ValueSource(classes = {String.class, Object.class, int.class, byte[].class, MessageLite.class})
  void otherTypesAreNotSupported(Class<?> type) {
    assertFalse(protobuf.supports(type));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> protobuf.codecFor(type));
    assertTrue(e.getMessage().contains(type.getName()), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(classes = {Message.class, AbstractMessage.class, GeneratedMessage.class})
  void messageInterfacesAndBaseClassesAreNotSupported(Class<?> type) {
    // Serialization's contract: codecFor throws only when supports is false. These have no
    // getDefaultInstance(), so codecFor cannot serve them and supports must say so.
    assertThrows(IllegalArgumentException.class, () -> protobuf.codecFor(type));
    assertFalse(protobuf.supports(type), type.getName() + " is claimed as supported");
  }

  @Test
  void codecForATypeNoSerializationCarriesNamesTheTypeAndWhatIsInstalled() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Serializations.codecFor(String.class));
    assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    assertTrue(e.getMessage().contains("protobuf"), e.getMessage());
  }

  @Test
  void jsonWritesAndReadsAnAnyHoldingATypeOfAFileItsFileImports() throws Exception {
    // type.proto imports source_context.proto: a SourceContext in an Option's Any is known to the codec.
    Type type = Type.newBuilder().setName("t")
        .addOptions(Option.newBuilder().setName("o").setValue(Any.pack(SourceContext.newBuilder().setFileName("a.proto").build())))
        .build();
    MessageCodec<Type> json = Serializations.codecFor(Type.class).withSubtype("json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    json.write(type, out);
    String text = out.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(text.contains("\"fileName\":\"a.proto\""), text);
    assertEquals(type, json.read(new ByteArrayInputStream(out.toByteArray())));
  }

  @Test
  void jsonOfAnAnyHoldingATypeOutsideItsFilesFailsNamingTheType() {
    Type type = Type.newBuilder().addOptions(Option.newBuilder().setValue(Any.pack(MESSAGE))).build();
    MessageCodec<Type> json = Serializations.codecFor(Type.class).withSubtype("json");
    Exception e = assertThrows(Exception.class, () -> json.write(type, new ByteArrayOutputStream()));
    assertTrue(e.getMessage().contains("google.protobuf.Struct"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aMessageInPiecesReadsAsTheWholeDirectOrNot(boolean direct) throws Exception {
    byte[] body = new byte[70_000];
    new java.util.Random(3).nextBytes(body);
    BytesValue value = BytesValue.of(ByteString.copyFrom(body));
    byte[] bytes = value.toByteArray();
    // Frames of 16 KiB, as HTTP/2 delivers them, with an empty one among them.
    java.util.List<ByteBuffer> pieces = new java.util.ArrayList<>();
    for (int offset = 0; offset < bytes.length; offset += 16384) {
      int length = Math.min(16384, bytes.length - offset);
      ByteBuffer piece = direct ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
      pieces.add(piece.put(bytes, offset, length).flip());
      if (offset == 0) {
        pieces.add(direct ? ByteBuffer.allocateDirect(0) : ByteBuffer.allocate(0));
      }
    }
    MessageCodec<BytesValue> codec = Serializations.codecFor(BytesValue.class);
    assertEquals(value, codec.read(pieces.toArray(new ByteBuffer[0])));
  }

  @Test
  void serializedSizeIsExact() {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    assertEquals(MESSAGE.toByteArray().length, codec.serializedSize(MESSAGE));
    assertEquals(0, Serializations.codecFor(Empty.class).serializedSize(Empty.getDefaultInstance()));
  }

  @Test
  void exactSizeWritesIntoDirectAndHeapBuffersAndAdvanceThem() throws Exception {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    int size = codec.serializedSize(MESSAGE);
    for (ByteBuffer target : new ByteBuffer[] {ByteBuffer.allocateDirect(size), ByteBuffer.allocate(size)}) {
      codec.write(MESSAGE, target);
      assertEquals(size, target.position(), "write moves the position past what it wrote");
      target.flip();
      assertEquals(MESSAGE, codec.read(target));
    }
  }

  @Test
  void writesGoIntoTheTargetsWindowOnly() throws Exception {
    MessageCodec<StringValue> codec = Serializations.codecFor(StringValue.class);
    StringValue value = StringValue.of("inside");
    int size = codec.serializedSize(value);
    ByteBuffer whole = ByteBuffer.allocate(size + 10);
    whole.position(5).limit(5 + size);
    codec.write(value, whole.slice());
    byte[] expected = new byte[size + 10];
    System.arraycopy(value.toByteArray(), 0, expected, 5, size);
    assertTrue(Arrays.equals(expected, whole.array()), Arrays.toString(whole.array()));
  }

  @Test
  void readsTakeOnlyTheRemainingBytes() throws Exception {
    MessageCodec<StringValue> codec = Serializations.codecFor(StringValue.class);
    byte[] message = StringValue.of("middle").toByteArray();
    byte[] padded = new byte[message.length + 6];
    Arrays.fill(padded, (byte) 0xff);
    System.arraycopy(message, 0, padded, 3, message.length);
    ByteBuffer window = ByteBuffer.wrap(padded, 3, message.length);
    assertEquals(StringValue.of("middle"), codec.read(window));
  }

  @Test
  void streamsRoundTrip() throws Exception {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(MESSAGE, out);
    assertEquals(MESSAGE, codec.read(new ByteArrayInputStream(out.toByteArray())));
  }

  @Test
  void noBytesReadAsTheDefaultInstance() throws Exception {
    assertSame(Empty.getDefaultInstance().getClass(),
        Serializations.codecFor(Empty.class).read(ByteBuffer.allocate(0)).getClass());
    assertEquals(StringValue.getDefaultInstance(), Serializations.codecFor(StringValue.class).read(ByteBuffer.allocate(0)));
    assertEquals(Int32Value.getDefaultInstance(),
        Serializations.codecFor(Int32Value.class).read(new ByteArrayInputStream(new byte[0])));
  }

  @Test
  void decodedBytesDoNotShareTheSourceBuffer() throws Exception {
    MessageCodec<BytesValue> codec = Serializations.codecFor(BytesValue.class);
    BytesValue value = BytesValue.of(ByteString.copyFromUtf8("keep me intact"));
    for (ByteBuffer source : new ByteBuffer[] {ByteBuffer.allocateDirect(64), ByteBuffer.allocate(64)}) {
      source.put(value.toByteArray()).flip();
      BytesValue decoded = codec.read(source.duplicate());
      // A pooled network buffer is reused once released; the message must not see that.
      source.clear();
      source.put(new byte[64]);
      assertEquals(value, decoded);
      assertNotSame(value, decoded);
    }
  }

  @Test
  void garbageFailsToRead() {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertThrows(InvalidProtocolBufferException.class, () -> codec.read(ByteBuffer.wrap(garbage)));
    assertThrows(InvalidProtocolBufferException.class, () -> codec.read(ByteBuffer.allocateDirect(3).put(garbage).flip()));
    assertThrows(InvalidProtocolBufferException.class, () -> codec.read(new ByteArrayInputStream(garbage)));
  }

  @Test
  void aTruncatedMessageFailsToRead() {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    byte[] bytes = MESSAGE.toByteArray();
    byte[] truncated = Arrays.copyOf(bytes, bytes.length - 2);
    assertThrows(InvalidProtocolBufferException.class, () -> codec.read(ByteBuffer.wrap(truncated)));
    assertThrows(InvalidProtocolBufferException.class, () -> codec.read(new ByteArrayInputStream(truncated)));
  }

  @Test
  void codecsNameTheirType() {
    assertTrue(Serializations.codecFor(Struct.class).toString().contains(Struct.class.getName()));
  }

  @Test
  void theFirstSerializationThatSupportsATypeIsUsed() {
    Serialization first = Serializations.installed().stream().filter(s -> s.supports(Struct.class)).findFirst()
        .orElseThrow();
    assertSame(ProtobufSerialization.class, first.getClass());
  }
}
