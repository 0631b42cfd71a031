package io.triplerpc.serialization.wrapper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The requests of overloads: a wrapper chooses by its argTypes, a JSON body by its number of arguments. */
class OverloadedArgumentsTest {

  interface Greeter {
    String greet();

    String greet(String name);

    String greet(String name, int times);

    String greet(long id, int times);
  }

  interface Tagger {
    String tag(String name, int times);

    String tag(List<String> names);
  }

  private static OverloadedArguments codec(Class<?> service, String... signatures) throws Exception {
    List<WrapperCodecs> overloads = new ArrayList<>();
    for (Method method : service.getMethods()) {
      overloads.add(WrapperCodecs.forMethod(service, method, ObjectSerializations.defaultSerialization()));
    }
    overloads.sort((a, b) -> a.method().toString().compareTo(b.method().toString()));
    return OverloadedArguments.of(service.getName() + ".m", overloads);
  }

  private static OverloadedArguments.Chosen read(MessageCodec<Object> codec, byte[] bytes) throws IOException {
    return (OverloadedArguments.Chosen) codec.read(new ByteArrayInputStream(bytes));
  }

  private static byte[] wrapper(OverloadedArguments codec, int overload, Object... arguments) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(new OverloadedArguments.Chosen(overload, arguments), out);
    return out.toByteArray();
  }

  private static String signature(OverloadedArguments codec, int overload) {
    return codec.overloads().split(", (?=greet|tag)")[overload];
  }

  @Test
  void aWrapperChoosesTheOverloadItsArgTypesNameExactly() throws Exception {
    OverloadedArguments codec = codec(Greeter.class);
    for (int i = 0; i < 4; i++) {
      Object[] arguments = signature(codec, i).equals("greet()") ? new Object[0]
          : signature(codec, i).equals("greet(java.lang.String)") ? new Object[] {"bob"}
          : signature(codec, i).startsWith("greet(long") ? new Object[] {7L, 2} : new Object[] {"bob", 2};
      OverloadedArguments.Chosen chosen = read(codec, wrapper(codec, i, arguments));
      assertEquals(i, chosen.overload());
      assertArrayEquals(arguments, (Object[]) ((InSerialization<?>) chosen.arguments()).value());
    }
  }

  @Test
  void argTypesOfNoOverloadAreMalformedNamingThemAndTheOverloads() throws Exception {
    OverloadedArguments codec = codec(Greeter.class);
    TripleRequestWrapper wrapper = TripleRequestWrapper.parseFrom(wrapper(codec, 1, "bob"))
        .toBuilder().clearArgTypes().addArgTypes("java.lang.Integer").build();
    MalformedMessageException e = assertThrows(MalformedMessageException.class,
        () -> read(codec, wrapper.toByteArray()));
    assertTrue(e.getMessage().contains("no overload takes argument types [java.lang.Integer]; the overloads are greet()"),
        e.getMessage());
  }

  @Test
  void aWrapperWithoutArgTypesIsChosenByItsCountWhenOnlyOneOverloadHasIt() throws Exception {
    OverloadedArguments codec = codec(Greeter.class);
    int one = List.of(codec.overloads().split(", (?=greet)")).indexOf("greet(java.lang.String)");
    TripleRequestWrapper bare = TripleRequestWrapper.parseFrom(wrapper(codec, one, "bob")).toBuilder()
        .clearArgTypes().build();
    assertEquals(one, read(codec, bare.toByteArray()).overload());
    int two = List.of(codec.overloads().split(", (?=greet)")).indexOf("greet(java.lang.String, int)");
    TripleRequestWrapper bareTwo = TripleRequestWrapper.parseFrom(wrapper(codec, two, "bob", 2)).toBuilder()
        .clearArgTypes().build();
    MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> read(codec, bareTwo.toByteArray()));
    assertTrue(e.getMessage().contains("none named, and 2 argument(s) do not choose one"), e.getMessage());
  }

  @Test
  void aJsonBodyChoosesByItsCountAndRefusesWhatSeveralFit() throws Exception {
    OverloadedArguments codec = codec(Greeter.class);
    MessageCodec<Object> json = codec.withSubtype("json");
    assertEquals("greet()", signature(codec, read(json, bytes("  ")).overload()));
    assertEquals("greet()", signature(codec, read(json, bytes("[]")).overload()));
    OverloadedArguments.Chosen one = read(json, bytes("\"bob\""));
    assertEquals("greet(java.lang.String)", signature(codec, one.overload()));
    assertArrayEquals(new Object[] {"bob"}, (Object[]) one.arguments());
    MalformedMessageException two = assertThrows(MalformedMessageException.class, () -> read(json, bytes("[\"bob\", 2]")));
    assertTrue(two.getMessage().contains("2 arguments fit 2 overloads"), two.getMessage());
    MalformedMessageException malformed = assertThrows(MalformedMessageException.class, () -> read(json, bytes("[")));
    assertTrue(malformed.getMessage().startsWith("Malformed JSON"), malformed.getMessage());
  }

  @Test
  void anArrayThatIsAlsoTheOneArgumentOfACollectionOverloadIsRefused() throws Exception {
    OverloadedArguments codec = codec(Tagger.class);
    MessageCodec<Object> json = codec.withSubtype("json");
    MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> read(json, bytes("[\"a\", 2]")));
    assertTrue(e.getMessage().contains("a JSON array of 2 value(s) is the arguments of tag(java.lang.String, int)"
        + " and the one argument of tag(java.util.List)"), e.getMessage());
    // An array of one value is no overload's argument list: it is the List.
    OverloadedArguments.Chosen single = read(json, bytes("[\"a\"]"));
    assertEquals(List.of("a"), ((Object[]) single.arguments())[0]);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
