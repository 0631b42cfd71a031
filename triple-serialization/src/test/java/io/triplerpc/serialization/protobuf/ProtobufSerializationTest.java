package io.triplerpc.serialization.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ProtobufSerializationTest {

  private static final Struct MESSAGE = Struct.newBuilder()
      .putFields("name", Value.newBuilder().setStringValue("Ada").build())
      .putFields("age", Value.newBuilder().setNumberValue(36).build())
      .build();

  @Test
  void protobufIsFoundForGeneratedMessagesOnly() {
    ProtobufSerialization protobuf = new ProtobufSerialization();
    assertTrue(protobuf.supports(Struct.class));
    assertFalse(protobuf.supports(MessageLite.class));
    assertFalse(protobuf.supports(String.class));
    assertTrue(Serializations.installed().stream().anyMatch(s -> s.name().equals("protobuf")));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Serializations.codecFor(String.class));
    assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
  }

  @Test
  void exactSizeWritesIntoDirectAndHeapBuffers() throws Exception {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    int size = codec.serializedSize(MESSAGE);
    for (ByteBuffer target : new ByteBuffer[] {ByteBuffer.allocateDirect(size), ByteBuffer.allocate(size)}) {
      codec.write(MESSAGE, target);
      assertEquals(0, target.remaining());
      target.flip();
      assertEquals(MESSAGE, codec.read(target));
    }
  }

  @Test
  void streamsRoundTrip() throws Exception {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(MESSAGE, out);
    assertEquals(MESSAGE, codec.read(new ByteArrayInputStream(out.toByteArray())));
    assertEquals("proto", codec.subtype());
  }

  @Test
  void garbageFailsToRead() {
    MessageCodec<Struct> codec = Serializations.codecFor(Struct.class);
    assertThrows(InvalidProtocolBufferException.class,
        () -> codec.read(ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff})));
  }
}
