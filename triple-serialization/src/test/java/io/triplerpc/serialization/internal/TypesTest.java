package io.triplerpc.serialization.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.serialization.object.TypeToken;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TypesTest {

  interface Base<X> {
    X base();
  }

  interface Repository<T> extends Base<List<T>> {
    Optional<T> find();

    T[] all();

    Map<String, ? extends T> byName();

    <R extends Number> R number();
  }

  interface Strings extends Repository<String> {}

  static Type returnType(Class<?> declaring, String name) throws NoSuchMethodException {
    return declaring.getMethod(name).getGenericReturnType();
  }

  @Test
  void variablesResolveThroughEveryLevelOfSupertypes() throws Exception {
    assertEquals(new TypeToken<Optional<String>>() {}.type(), Types.resolve(returnType(Repository.class, "find"), Strings.class));
    assertEquals(new TypeToken<List<String>>() {}.type(), Types.resolve(returnType(Base.class, "base"), Strings.class));
    assertEquals(String[].class, Types.resolve(returnType(Repository.class, "all"), Strings.class));
    assertEquals(new TypeToken<Map<String, String>>() {}.type(),
        Types.resolve(returnType(Repository.class, "byName"), Strings.class), "a wildcard becomes its bound");
    assertEquals(Number.class, Types.resolve(returnType(Repository.class, "number"), Strings.class));
  }

  @Test
  void anUnboundVariableBecomesItsBound() throws Exception {
    assertEquals(new TypeToken<Optional<Object>>() {}.type(), Types.resolve(returnType(Repository.class, "find"),
        Repository.class));
  }

  @Test
  void resolvedTypesEqualTheJdksAndHashAlike() throws Exception {
    Type resolved = Types.resolve(returnType(Repository.class, "find"), Strings.class);
    Type jdk = new TypeToken<Optional<String>>() {}.type();
    assertEquals(jdk.hashCode(), resolved.hashCode());
    assertEquals("java.util.Optional<java.lang.String>", resolved.getTypeName());
  }

  @Test
  void rawClassesBoxingAndTypeArguments() {
    assertEquals(List.class, Types.rawClass(new TypeToken<List<String>>() {}.type()));
    assertEquals(Integer.class, Types.boxed(int.class));
    assertEquals(Character.class, Types.boxed(char.class));
    assertEquals(String.class, Types.boxed(String.class));
    assertArrayEquals(new Class<?>[] {String.class, List.class},
        Types.rawTypeArguments(new TypeToken<Map<String, List<Integer>>>() {}.type()));
  }
}
