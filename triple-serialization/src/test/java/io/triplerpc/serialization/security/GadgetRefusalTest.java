package io.triplerpc.serialization.security;

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
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Gadget-style payloads, written by hand as an attacker would, are refused before any code of the class
 * they name runs: not its static initializer, constructor, setters, {@code readObject} or {@code readResolve}.
 */
class GadgetRefusalTest {

  private static final ClassLoader LOADER = GadgetRefusalTest.class.getClassLoader();
  private static final String GADGET = "io.triplerpc.serialization.security.Gadget";

  private final ObjectSerialization hessian = ObjectSerializations.named("hessian2");
  private final ObjectSerialization json = ObjectSerializations.named("jackson");

  @BeforeEach
  void resetTripwire() {
    Tripwire.reset();
  }

  static AllowedClasses service(Type declared, String... allowList) {
    return AllowedClasses.forTypes("service test.Mailbox", List.of(declared), LOADER,
        DeserializationAllowList.of(allowList));
  }

  private static Object read(ObjectSerialization serialization, Type type, AllowedClasses allowed, byte[] bytes)
      throws IOException {
    ObjectCodec codec = serialization.codecFor(type, LOADER, allowed);
    return codec.read(new ByteArrayInputStream(bytes));
  }

  private void assertRefusedUntouched(ObjectSerialization serialization, Type type, byte[] bytes) {
    ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
        () -> read(serialization, type, service(type), bytes));
    assertEquals(GADGET, e.className());
    assertTrue(e.getMessage().startsWith("class " + GADGET + " is not allowed to be deserialized for service "
        + "test.Mailbox"), e.getMessage());
    assertEquals(List.of(), Tripwire.tripped(), "no code of the gadget ran, not even its static initializer");
  }

  @Test
  void aHessianGadgetInAnObjectFieldIsRefusedBeforeAnyOfItsCodeRuns() throws IOException {
    assertRefusedUntouched(hessian, Envelope.class, HandBuiltHessian.envelopeAttaching(GADGET));
  }

  @Test
  void aHessianGadgetWhereObjectIsDeclaredIsRefused() throws IOException {
    assertRefusedUntouched(hessian, Object.class, HandBuiltHessian.object(GADGET, "touch /tmp/pwned"));
  }

  @Test
  void aHessianGadgetInsideAListAnArrayOrAMapIsRefused() throws IOException {
    assertRefusedUntouched(hessian, new TypeToken<List<Object>>() {}.type(), HandBuiltHessian.listHolding(GADGET));
    assertRefusedUntouched(hessian, Object[].class, HandBuiltHessian.arrayOf(GADGET));
    assertRefusedUntouched(hessian, new TypeToken<Map<String, Object>>() {}.type(),
        HandBuiltHessian.mapHolding(GADGET));
  }

  @Test
  void aHessianGadgetPosingAsAnExceptionIsRefused() throws IOException {
    assertRefusedUntouched(hessian, Throwable.class, HandBuiltHessian.object(GADGET, "x"));
  }

  @Test
  void aHessianRefusalIsNotCachedAwayByAnotherServiceThatAllowsTheClass() throws IOException {
    // Both services share one serialization; the first allows TrustedValue, the second does not.
    byte[] trusted = HandBuiltHessian.objectWithFields(TrustedValue.class.getName(), Map.of("label", "ok"));
    Object read = read(hessian, Object.class, service(Object.class, TrustedValue.class.getName()), trusted);
    assertEquals("ok", assertInstanceOf(TrustedValue.class, read).label());
    ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
        () -> read(hessian, Object.class, service(Object.class), trusted));
    assertEquals(TrustedValue.class.getName(), e.className());
  }

  @Test
  void aClassOnTheAllowListIsReadAndItsReadResolveRuns() throws IOException {
    byte[] bytes = HandBuiltHessian.objectWithFields(TrustedValue.class.getName(), Map.of("label", "hello"));
    Object read = read(hessian, Object.class, service(Object.class, TrustedValue.class.getName()), bytes);
    assertEquals("hello", assertInstanceOf(TrustedValue.class, read).label());
    assertEquals(List.of("TrustedValue.readResolve hello"), Tripwire.tripped());
  }

  @Test
  void aJsonTypeIdNamingAGadgetIsRefusedBeforeJacksonLoadsTheClass() {
    byte[] bytes = ("{\"@class\":\"" + GADGET + "\",\"command\":\"touch /tmp/pwned\"}")
        .getBytes(StandardCharsets.UTF_8);
    // Animal carries a type id (a non-final application class); Throwable always does.
    assertRefusedUntouched(json, Animal.class, bytes);
    assertRefusedUntouched(json, Throwable.class, bytes);
  }

  @Test
  void aJsonTypeIdInsideADeclaredGraphIsRefused() {
    assertRefusedUntouched(json, new TypeToken<List<Animal>>() {}.type(),
        ("[{\"name\":\"Rex\"},{\"@class\":\"" + GADGET + "\"}]").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void withoutTheCheckTheHandBuiltPayloadWouldRunTheGadget() throws IOException {
    // The payloads are real: allowed (here by its package), the gadget's code runs as it is read.
    String live = LiveGadget.class.getName();
    read(hessian, Object.class, service(Object.class, live), HandBuiltHessian.object(live, "touch /tmp/pwned"));
    assertTrue(Tripwire.tripped().contains("LiveGadget.readResolve touch /tmp/pwned"), Tripwire.tripped().toString());
  }

  @Test
  void aJsonObjectFieldNeverBuildsANamedClass() throws IOException {
    byte[] bytes = ("{\"to\":\"x\",\"attachment\":{\"@class\":\"" + GADGET + "\",\"command\":\"c\"}}")
        .getBytes(StandardCharsets.UTF_8);
    Envelope read = (Envelope) read(json, Envelope.class, service(Envelope.class), bytes);
    assertInstanceOf(Map.class, read.attachment, "Object reads as plain JSON values");
    assertEquals(List.of(), Tripwire.tripped());
  }
}
