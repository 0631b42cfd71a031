package io.triplerpc.serialization.security;

import static com.alibaba.fastjson2.JSONB.Constants.BC_BINARY;
import static com.alibaba.fastjson2.JSONB.Constants.BC_OBJECT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_OBJECT_END;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.object.TypeToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * fastjson2 JSONB built by hand, as an attacker would, naming a gadget wherever the format lets a sender name
 * a class: every one is refused by name, before fastjson2 loads the class, so none of its code runs; and
 * malformed JSONB fails with a clear error.
 */
class Fastjson2GadgetRefusalTest {

  private static final ClassLoader LOADER = Fastjson2GadgetRefusalTest.class.getClassLoader();
  private static final String GADGET = "io.triplerpc.serialization.security.Gadget";

  private final ObjectSerialization fastjson2 = ObjectSerializations.named("fastjson2");

  @BeforeEach
  void resetTripwire() {
    Tripwire.reset();
  }

  private static AllowedClasses service(Type declared, String... allowList) {
    return AllowedClasses.forTypes("service test.Mailbox", List.of(declared), LOADER,
        DeserializationAllowList.of(allowList));
  }

  private Object read(Type type, AllowedClasses allowed, byte[] bytes) throws IOException {
    ObjectCodec codec = fastjson2.codecFor(type, LOADER, allowed);
    return codec.read(new ByteArrayInputStream(bytes));
  }

  private void assertRefusedUntouched(Type type, byte[] bytes) {
    assertRefusedUntouched(type, bytes, GADGET);
  }

  private void assertRefusedUntouched(Type type, byte[] bytes, String refusedClass) {
    ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> read(type, service(type), bytes));
    assertEquals(refusedClass, e.className());
    assertTrue(e.getMessage().startsWith("class " + refusedClass + " is not allowed to be deserialized for service "
        + "test.Mailbox"), e.getMessage());
    assertTrue(e.getMessage().contains("allowDeserialization(\"" + refusedClass + "\")"), e.getMessage());
    assertEquals(List.of(), Tripwire.tripped(), "no code of the gadget ran, not even its static initializer");
  }

  @Test
  void aGadgetInAnObjectFieldIsRefusedBeforeAnyOfItsCodeRuns() {
    assertRefusedUntouched(Envelope.class, HandBuiltJsonb.envelopeAttaching(GADGET));
  }

  @Test
  void aGadgetWhereObjectIsDeclaredIsRefused() {
    assertRefusedUntouched(Object.class, HandBuiltJsonb.object(GADGET, "touch /tmp/pwned"));
  }

  @Test
  void aGadgetInsideAListAnArrayOrAMapIsRefused() {
    assertRefusedUntouched(new TypeToken<List<Object>>() {}.type(), HandBuiltJsonb.listHolding(GADGET));
    assertRefusedUntouched(Object[].class, HandBuiltJsonb.arrayOf(GADGET));
    assertRefusedUntouched(Object.class, HandBuiltJsonb.arrayOf(GADGET));
    assertRefusedUntouched(new TypeToken<Map<String, Object>>() {}.type(), HandBuiltJsonb.mapHolding(GADGET));
  }

  @Test
  void aGadgetPosingAsADeclaredClassOrAnExceptionIsRefused() {
    assertRefusedUntouched(Animal.class, HandBuiltJsonb.object(GADGET, "x"));
    assertRefusedUntouched(new TypeToken<List<Animal>>() {}.type(), HandBuiltJsonb.listOf(GADGET));
    assertRefusedUntouched(Throwable.class, HandBuiltJsonb.object(GADGET, "x"));
  }

  @Test
  void aJdkClassOffTheListIsRefusedToo() {
    assertRefusedUntouched(Object.class, HandBuiltJsonb.object("java.lang.ProcessBuilder", "x"),
        "java.lang.ProcessBuilder");
    // A name fastjson2 maps to a JDK class of its own table is checked as that class.
    assertRefusedUntouched(Object.class, HandBuiltJsonb.object("java.text.SimpleDateFormat", "x"),
        "java.text.SimpleDateFormat");
    assertRefusedUntouched(Object.class, HandBuiltJsonb.object("InternalError", "x"), "java.lang.InternalError");
  }

  @Test
  void aClassValueNamingAGadgetIsRefused() {
    assertRefusedUntouched(Object.class, HandBuiltJsonb.classNaming(GADGET), "java.lang.Class");
  }

  @Test
  void aRefusalIsNotCachedAwayByAnotherServiceThatAllowsTheClass() throws IOException {
    // Both services share one serialization; the first allows TrustedValue, the second does not.
    byte[] trusted = HandBuiltJsonb.objectWithFields(TrustedValue.class.getName(), Map.of("label", "ok"));
    Object read = read(Object.class, service(Object.class, TrustedValue.class.getName()), trusted);
    assertEquals("ok", assertInstanceOf(TrustedValue.class, read).label());
    for (int i = 0; i < 2; i++) {
      ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
          () -> read(Object.class, service(Object.class), trusted));
      assertEquals(TrustedValue.class.getName(), e.className());
    }
  }

  @Test
  void withoutTheCheckTheHandBuiltPayloadWouldRunTheGadget() throws IOException {
    // The payloads are real: allowed (here by name), the gadget's code runs as it is read.
    String live = LiveGadget.class.getName();
    Object read = read(Object.class, service(Object.class, live), HandBuiltJsonb.object(live, "touch /tmp/pwned"));
    assertInstanceOf(LiveGadget.class, read);
    assertTrue(Tripwire.tripped().containsAll(List.of("LiveGadget.<clinit>", "LiveGadget.<init>")),
        Tripwire.tripped().toString());
  }

  @Test
  void malformedJsonbIsAClearError() {
    byte[] valid = HandBuiltJsonb.objectWithFields(Envelope.class.getName(), Map.of("to", "bob"));
    assertMalformed(Envelope.class, new byte[0], "shorter than its 4-byte length prefix");
    assertMalformed(Envelope.class, new byte[] {0, 0, 0, 0}, "no JSONB after the length prefix");
    assertMalformed(Envelope.class, Arrays.copyOf(valid, valid.length - 2), "the length prefix says");
    byte[] longer = Arrays.copyOf(valid, valid.length + 1);
    assertMalformed(Envelope.class, longer, "the length prefix says");
    byte[] truncatedInside = HandBuiltJsonb.frame(Arrays.copyOfRange(valid, 4, valid.length - 3));
    assertMalformed(Envelope.class, truncatedInside, "Malformed fastjson2 " + Envelope.class.getName());
    byte[] garbage = HandBuiltJsonb.frame(new byte[] {(byte) 0xff, (byte) 0xfe, 0x12});
    assertMalformed(Envelope.class, garbage, "Malformed fastjson2 " + Envelope.class.getName());
    byte[] twoValues = HandBuiltJsonb.frame(new byte[] {0x01, 0x02});
    assertMalformed(Integer.class, twoValues, "bytes follow the value");
    assertEquals(List.of(), Tripwire.tripped());
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLengthThatPointsBackIsMalformedNotALoop() {
    // An unknown field whose value is an object holding a string whose length (-2) leads back to its own type
    // byte: fastjson2's skipValue, which passes over unknown fields, went round it for ever
    // (Fastjson2AllowListFuzzTest found it, as a hang).
    byte[] nameLoop = {BC_OBJECT, 0x4b, 'z', 'z', BC_OBJECT, BC_STR_ASCII, -2, BC_OBJECT_END, BC_OBJECT_END};
    assertMalformed(Envelope.class, HandBuiltJsonb.frame(nameLoop), "Malformed fastjson2 " + Envelope.class.getName());
    byte[] valueLoop = {BC_OBJECT, 0x4b, 'z', 'z', BC_OBJECT, 0x4a, 'k', BC_STR_ASCII, -2, BC_OBJECT_END, BC_OBJECT_END};
    assertMalformed(Envelope.class, HandBuiltJsonb.frame(valueLoop), "Malformed fastjson2 " + Envelope.class.getName());
    byte[] binaryLoop = {BC_OBJECT, 0x4b, 'z', 'z', BC_BINARY, -2, BC_OBJECT_END};
    assertMalformed(Envelope.class, HandBuiltJsonb.frame(binaryLoop), "Malformed fastjson2 " + Envelope.class.getName());
  }

  private void assertMalformed(Type type, byte[] bytes, String fragment) {
    IOException e = assertThrows(IOException.class, () -> read(type, service(type), bytes));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
