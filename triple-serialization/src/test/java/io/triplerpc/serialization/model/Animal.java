package io.triplerpc.serialization.model;

import java.util.Objects;

/** A POJO base class without getters or {@code Serializable}; {@link Dog} extends it. */
public class Animal {
  private String name;
  private int legs;
  private Integer age;

  public Animal() {}

  public Animal(String name, int legs, Integer age) {
    this.name = name;
    this.legs = legs;
    this.age = age;
  }

  public String name() {
    return name;
  }

  @Override
  public boolean equals(Object o) {
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    Animal that = (Animal) o;
    return legs == that.legs && Objects.equals(name, that.name) && Objects.equals(age, that.age);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, legs, age);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{name=" + name + ", legs=" + legs + ", age=" + age + extra() + '}';
  }

  protected String extra() {
    return "";
  }
}
