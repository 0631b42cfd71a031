package io.triplerpc.transport.netty.pojo;

import io.triplerpc.TripleService;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A plain Java service with Java overloads: {@code greet} with none, one and two parameters (one of them
 * primitive), {@code find} by a primitive, a boxed and a POJO parameter, each with its own result type.
 */
@TripleService(name = "triple.test.Overloads")
public interface Overloads {

  String greet();

  String greet(String name);

  String greet(String name, int times);

  /** Also served in its asynchronous form, which the implementation provides. */
  default CompletableFuture<String> greetAsync(String name, int times) {
    return CompletableFuture.completedFuture(greet(name, times));
  }

  String find(long id);

  Long find(Long id);

  List<Pet> find(Pet example) throws NoSuchPet;

  /** A POJO parameter and result. */
  class Pet implements Serializable {
    public String name;
    public int age;

    public Pet() {}

    public Pet(String name, int age) {
      this.name = name;
      this.age = age;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Pet pet && pet.name.equals(name) && pet.age == age;
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + age;
    }

    @Override
    public String toString() {
      return name + "/" + age;
    }
  }

  /** A checked exception one overload declares. */
  class NoSuchPet extends Exception {
    public NoSuchPet(String message) {
      super(message);
    }
  }

  /** The same service as another client sees it: an overload the server does not have. */
  @TripleService(name = "triple.test.Overloads")
  interface WithAnotherOverload {
    String find(int id);
  }

  /** The implementation the tests serve. */
  class Impl implements Overloads {
    @Override
    public String greet() {
      return "hello";
    }

    @Override
    public String greet(String name) {
      return "hello " + name;
    }

    @Override
    public String greet(String name, int times) {
      return ("hello " + name + " ").repeat(times).trim();
    }

    @Override
    public CompletableFuture<String> greetAsync(String name, int times) {
      return CompletableFuture.supplyAsync(() -> "async " + greet(name, times));
    }

    @Override
    public String find(long id) {
      return "long " + id;
    }

    @Override
    public Long find(Long id) {
      return id == null ? -1L : id * 2;
    }

    @Override
    public List<Pet> find(Pet example) throws NoSuchPet {
      if (example.name.isEmpty()) {
        throw new NoSuchPet("no pet without a name");
      }
      return List.of(example, new Pet(example.name + " junior", 1));
    }
  }
}
