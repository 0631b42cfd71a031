package io.triplerpc.serialization.model;

import java.util.List;
import java.util.Objects;

/** A subclass, sent where {@link Animal} is declared. */
public class Dog extends Animal {
  private String breed;
  private List<String> tricks;

  public Dog() {}

  public Dog(String name, Integer age, String breed, List<String> tricks) {
    super(name, 4, age);
    this.breed = breed;
    this.tricks = tricks;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && Objects.equals(breed, ((Dog) o).breed) && Objects.equals(tricks, ((Dog) o).tricks);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), breed, tricks);
  }

  @Override
  protected String extra() {
    return ", breed=" + breed + ", tricks=" + tricks;
  }
}
