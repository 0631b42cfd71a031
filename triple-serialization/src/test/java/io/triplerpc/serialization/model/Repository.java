package io.triplerpc.serialization.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A generic service interface; {@link AnimalRepository} binds its type variable. */
public interface Repository<T> {
  Optional<T> find(String id);

  List<T> findAll(Map<String, List<T>> byOwner);

  <R> R echo(R value);
}
