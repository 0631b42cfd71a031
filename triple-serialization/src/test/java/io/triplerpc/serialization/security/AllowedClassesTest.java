package io.triplerpc.serialization.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.model.Animal;
import io.triplerpc.serialization.model.Dog;
import io.triplerpc.serialization.model.Order;
import io.triplerpc.serialization.model.OutOfStockException;
import io.triplerpc.serialization.model.ShopService;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.DeserializationAllowList;
import io.triplerpc.serialization.object.TypeToken;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllowedClassesTest {

  private static final ClassLoader LOADER = AllowedClassesTest.class.getClassLoader();

  static AllowedClasses allowing(List<Type> types, String... allowList) {
    return AllowedClasses.forTypes("service test.Svc", types, LOADER, DeserializationAllowList.of(allowList));
  }

  @Test
  void signaturesReachParametersResultsExceptionsFieldsAndTypeArguments() {
    List<Type> declared = new ArrayList<>();
    for (Method method : ShopService.class.getMethods()) {
      declared.addAll(WrapperCodecs.declaredTypes(ShopService.class, method));
    }
    AllowedClasses allowed = allowing(declared);
    // Order is a parameter; Address, Animal and Color are its fields; OutOfStockException is declared.
    for (String name : List.of(Order.class.getName(), "io.triplerpc.serialization.model.Address",
        Animal.class.getName(), "io.triplerpc.serialization.model.Color", OutOfStockException.class.getName())) {
      assertTrue(allowed.allows(name), name);
    }
    assertFalse(allowed.allows(Gadget.class.getName()));
  }

  @Test
  void nestedFieldsAndTypeArgumentsOfGenericsAreReached() {
    AllowedClasses allowed = allowing(List.of(new TypeToken<Map<String, List<Envelope>>>() {}.type()));
    assertTrue(allowed.allows(Envelope.class.getName()));
    assertTrue(allowed.allows(Envelope.Letter.class.getName()));
    assertTrue(allowed.allows(Envelope.Stamp.class.getName()), "a field of a field");
    assertFalse(allowed.allows(Gadget.class.getName()), "an Object field opens nothing");
  }

  @Test
  void jdkValueTypesAreAllowedButNotTheWholeJdk() {
    AllowedClasses allowed = allowing(List.of(String.class));
    for (String safe : List.of("java.lang.Integer", "java.math.BigDecimal", "java.time.Instant", "java.util.UUID",
        "java.util.ArrayList", "java.util.ImmutableCollections$ListN", "java.util.Optional",
        "java.lang.IllegalStateException", "java.lang.StackTraceElement", "[java.lang.String", "[I")) {
      assertTrue(allowed.allows(safe), safe);
    }
    for (String dangerous : List.of("java.lang.Runtime", "java.lang.ProcessBuilder", "java.lang.Class",
        "java.lang.Thread", "java.net.URL", "java.net.InetAddress", "javax.management.BadAttributeValueExpException",
        "java.rmi.server.UnicastRemoteObject", "java.util.PriorityQueue", "javax.script.ScriptEngineManager",
        "java.lang.reflect.Proxy", "com.sun.rowset.JdbcRowSetImpl", "sun.misc.Unsafe", "[java.lang.Runtime",
        "[Ljava.lang.ProcessBuilder;", "java.lang.NoSuchClass")) {
      assertFalse(allowed.allows(dangerous), dangerous);
    }
  }

  @Test
  void aJdkClassASignatureNamesIsAllowed() {
    assertFalse(allowing(List.of(String.class)).allows(URI.class.getName()));
    assertTrue(allowing(List.of(URI.class)).allows(URI.class.getName()));
  }

  @Test
  void subclassesOfADeclaredApplicationClassAreAllowedWithTheirFields() {
    AllowedClasses allowed = allowing(List.of(Animal.class));
    assertTrue(allowed.allows(Dog.class.getName()));
    assertTrue(allowed.allows("[" + Dog.class.getName()));
    // Object is no application class: declaring it allows no subclass.
    assertFalse(allowing(List.of(Object.class)).allows(Gadget.class.getName()));
  }

  @Test
  void aClassReachedOnlyAsASupertypeAllowsNoOtherSubclass() {
    // Dog declares Animal as its superclass, but no slot holds an Animal: a sibling has nowhere to go.
    AllowedClasses allowed = allowing(List.of(Dog.class));
    assertTrue(allowed.allows(Animal.class.getName()));
    assertFalse(allowed.allows(Sibling.class.getName()));
    assertTrue(allowing(List.of(Animal.class)).allows(Sibling.class.getName()));
  }

  /** Another subclass of {@link Animal}. */
  static class Sibling extends Animal {
    Sibling() {
      super("s", 4, 1);
    }
  }

  @Test
  void allowListsNameClassesAndPackagePrefixes() {
    assertTrue(allowing(List.of(), TrustedValue.class.getName()).allows(TrustedValue.class.getName()));
    assertFalse(allowing(List.of(), TrustedValue.class.getName()).allows(Gadget.class.getName()));
    assertTrue(allowing(List.of(), "io.triplerpc.serialization.security.").allows(Gadget.class.getName()));
    assertFalse(allowing(List.of(), "io.triplerpc.serialization.securit.").allows(Gadget.class.getName()));
  }

  @Test
  void anAllowListThatGrowsLaterStillApplies() {
    DeserializationAllowList list = DeserializationAllowList.create();
    AllowedClasses allowed = AllowedClasses.forTypes("service test.Svc", List.of(), LOADER, list);
    assertFalse(allowed.allows(TrustedValue.class.getName()));
    list.add(TrustedValue.class.getName());
    assertTrue(allowed.allows(TrustedValue.class.getName()));
  }

  @Test
  void badAllowListEntriesAreRefusedWhenAdded() {
    for (String bad : List.of("", "com.", "java.", "com.acme.*", "com acme.Foo", "com..acme", "1com.acme.")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> DeserializationAllowList.of(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad.trim() + "'"), e.getMessage());
    }
  }

  @Test
  void theClassPathResourceAndTheSystemPropertyAddToTheAllowList() {
    assertTrue(allowing(List.of()).allows(ResourceAllowed.class.getName()), "META-INF/triple/serialize.allowlist");
    assertFalse(allowing(List.of()).allows(PropertyAllowed.class.getName()));
    System.setProperty(DeserializationAllowList.PROPERTY, " " + PropertyAllowed.class.getName() + " , com.acme.x. ");
    try {
      AllowedClasses allowed = allowing(List.of());
      assertTrue(allowed.allows(PropertyAllowed.class.getName()));
      assertTrue(allowed.allows("com.acme.x.Anything"));
    } finally {
      System.clearProperty(DeserializationAllowList.PROPERTY);
    }
  }

  @Test
  void aRefusalNamesTheClassTheServiceAndHowToAllowIt() {
    ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
        () -> allowing(List.of()).check("[L" + Gadget.class.getName() + ";"));
    assertEquals(Gadget.class.getName(), e.className());
    assertTrue(e.getMessage().startsWith("class " + Gadget.class.getName()
        + " is not allowed to be deserialized for service test.Svc"), e.getMessage());
    assertTrue(e.getMessage().contains("allowDeserialization(\"" + Gadget.class.getName() + "\")"), e.getMessage());
    assertTrue(e.getMessage().contains(DeserializationAllowList.RESOURCE), e.getMessage());
    assertTrue(e.getMessage().contains("-D" + DeserializationAllowList.PROPERTY), e.getMessage());
  }
}
