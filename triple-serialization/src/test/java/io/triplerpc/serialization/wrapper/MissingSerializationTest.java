package io.triplerpc.serialization.wrapper;

import static io.triplerpc.serialization.wrapper.WrapperCodecsTest.encodeValue;
import static io.triplerpc.serialization.wrapper.WrapperCodecsTest.shop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.object.SerializationNotInstalledException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Without {@code triple-serialization-fastjson2}, a peer's message in fastjson2 is refused with an exception
 * that names the artifact, so a server can answer that it does not have it rather than that the peer erred.
 */
class MissingSerializationTest {

  @Test
  void aRequestInFastjson2IsRefusedNamingTheArtifact() throws IOException {
    WrapperCodecs codecs = shop("total", ObjectSerializations.defaultSerialization());
    byte[] request = MalformedWrapperTest.validTotal(ObjectSerializations.defaultSerialization())
        .setSerializeType("fastjson2").build().toByteArray();

    SerializationNotInstalledException e = assertThrows(SerializationNotInstalledException.class,
        () -> codecs.arguments().read(ByteBuffer.wrap(request)));

    assertEquals("io.triplerpc:triple-serialization-fastjson2", e.artifact());
    assertTrue(e.getMessage().contains("ShopService.total") && e.getMessage().contains("'fastjson2'")
        && e.getMessage().contains("needs io.triplerpc:triple-serialization-fastjson2"), e.getMessage());
  }

  @Test
  void aResponseInFastjson2IsRefusedNamingTheArtifact() throws IOException {
    WrapperCodecs codecs = shop("total", ObjectSerializations.defaultSerialization());
    byte[] response = TripleResponseWrapper.parseFrom(encodeValue(codecs.result(), BigDecimal.TEN)).toBuilder()
        .setSerializeType("fastjson2").build().toByteArray();

    SerializationNotInstalledException e = assertThrows(SerializationNotInstalledException.class,
        () -> codecs.result().read(ByteBuffer.wrap(response)));

    assertEquals(ObjectSerializations.FASTJSON2_ARTIFACT, e.artifact());
  }
}
