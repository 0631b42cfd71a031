package io.triplerpc.serialization.model;

/** Binds {@link Repository}'s {@code T} to {@link Animal}. */
public interface AnimalRepository extends Repository<Animal> {}
