package io.triplerpc.serialization.object;

import java.lang.reflect.Type;

/**
 * Serializes plain Java values (POJOs, records, enums, collections, {@code java.time}, ...) one at a time,
 * for methods whose parameters and results are not protobuf messages. Such values travel inside Dubbo's
 * Triple wrapper messages (see {@code io.triplerpc.serialization.wrapper}), one serialized value per
 * argument, so a serialization only ever reads and writes a single value.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (see {@link ObjectSerializations}) and
 * are immutable and thread-safe.
 */
public interface ObjectSerialization {

  /**
   * The name a service selects this serialization by, such as {@code "hessian2"} or {@code "json"}; see
   * {@link ObjectSerializations}.
   */
  String name();

  /**
   * What this serialization writes into a wrapper's {@code serializeType}: the name Apache Dubbo uses for
   * the same bytes ({@code "hessian4"} for hessian2, {@code "jackson"} for Jackson JSON), so a Dubbo peer
   * reads them.
   */
  String wireName();

  /**
   * Whether a wrapper whose {@code serializeType} is {@code serializeType} carries bytes this serialization
   * reads; true at least for {@link #wireName()}.
   */
  boolean readsWireName(String serializeType);

  /**
   * Returns the codec of values declared as {@code type}; called once per parameter or result when a
   * service is exported or referred, never per call.
   *
   * @param type the declared type, generics included ({@code List<User>}, {@code Optional<Instant>}, ...);
   *     type variables must already be resolved
   * @param classLoader where the classes a peer names on the wire are loaded from, normally the service
   *     interface's loader
   */
  ObjectCodec codecFor(Type type, ClassLoader classLoader);
}
