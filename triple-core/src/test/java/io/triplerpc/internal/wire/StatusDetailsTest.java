package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import com.google.protobuf.UnknownFieldSet;
import io.triplerpc.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** google.rpc.Status written by hand, checked against protobuf's own reading of its fields. */
class StatusDetailsTest {

  private final Any first = Any.pack(StringValue.of("first"));
  private final Any second = Any.pack(Struct.getDefaultInstance());

  @Test
  void encodesCodeMessageAndDetailsAsTheirFieldNumbers() throws Exception {
    byte[] bytes = StatusDetails.encode(Status.ABORTED.withDescription("ünïcødé").withDetails(List.of(first, second)));
    UnknownFieldSet fields = UnknownFieldSet.parseFrom(bytes);
    assertEquals(List.of(10L), fields.getField(1).getVarintList());
    assertEquals(List.of(ByteString.copyFromUtf8("ünïcødé")), fields.getField(2).getLengthDelimitedList());
    assertEquals(List.of(first.toByteString(), second.toByteString()), fields.getField(3).getLengthDelimitedList());
  }

  @Test
  void decodesTheDetailsBack() throws Exception {
    Status status = Status.NOT_FOUND.withDescription("gone").withDetails(List.of(first, second));
    assertEquals(List.of(first, second), StatusDetails.decodeDetails(StatusDetails.encode(status)));
  }

  @Test
  void emptyStatusIsEmpty() throws Exception {
    assertArrayEquals(new byte[0], StatusDetails.encode(Status.OK));
    assertEquals(List.of(), StatusDetails.decodeDetails(new byte[0]));
  }

  @Test
  void skipsFieldsItDoesNotKnow() throws Exception {
    byte[] known = StatusDetails.encode(Status.INTERNAL.withDetails(List.of(first)));
    byte[] withExtra = UnknownFieldSet.newBuilder(UnknownFieldSet.parseFrom(known))
        .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
        .build()
        .toByteArray();
    assertEquals(List.of(first), StatusDetails.decodeDetails(withExtra));
  }

  @Test
  void malformedBytesAreRejected() {
    assertThrows(InvalidProtocolBufferException.class, () -> StatusDetails.decodeDetails(new byte[] {0x1a, 0x7f, 1}));
  }
}
