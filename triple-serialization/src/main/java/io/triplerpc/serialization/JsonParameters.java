package io.triplerpc.serialization;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.List;

/**
 * The JSON forms of a plain Java method's parameters, one at a time, with the service's allow list: what a
 * REST request binds from its path, query, headers and body. The JSON codec of such a method's arguments
 * ({@code withSubtype("json")}) offers it. Thread-safe.
 */
public interface JsonParameters {

  /** The parameters' declared types, in order. */
  List<Type> parameterTypes();

  /**
   * Reads parameter {@code index}'s value from {@code json}.
   *
   * @throws MalformedMessageException naming the parameter, if the JSON is not a value of its type
   */
  Object readParameter(int index, byte[] json) throws IOException;
}
