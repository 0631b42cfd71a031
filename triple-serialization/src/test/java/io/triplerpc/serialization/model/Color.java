package io.triplerpc.serialization.model;

/** An enum, one of whose constants has a body (so its class is an anonymous subclass). */
public enum Color {
  RED,
  GREEN,
  BLUE {
    @Override
    public String toString() {
      return "blue!";
    }
  }
}
