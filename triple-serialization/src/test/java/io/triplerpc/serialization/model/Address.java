package io.triplerpc.serialization.model;

/** A record, not {@code Serializable}. */
public record Address(String street, String city, int zip) {}
