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
   * The name a service selects this serialization by, such as {@code "hessian2"} or {@code "fastjson2"}; see
   * {@link ObjectSerializations}.
   */
  String name();

  /**
   * What this serialization writes into a wrapper's {@code serializeType}: the name Apache Dubbo uses for
   * the same bytes ({@code "hessian4"} for hessian2, {@code "fastjson2"}; {@code "jackson"} for Jackson JSON,
   * as dubbo-spi-extensions names it), so a Dubbo peer reads them.
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
   * <p>The codec instantiates only classes that {@code allowed} allows: it checks every class a peer names
   * before loading or building it, and fails the read with a {@link ClassNotAllowedException} (perhaps as
   * the cause of another {@code IOException}) otherwise. Codecs of one service share one
   * {@code AllowedClasses}, so implementations may share per-{@code allowed} state among them.
   *
   * @param type the declared type, generics included ({@code List<User>}, {@code Optional<Instant>}, ...);
   *     type variables must already be resolved
   * @param classLoader where the classes a peer names on the wire are loaded from, normally the service
   *     interface's loader
   * @param allowed the classes a peer may make values of
   */
  ObjectCodec codecFor(Type type, ClassLoader classLoader, AllowedClasses allowed);

  /**
   * The codec of values declared as {@code type} that may be made of only what {@code type} itself reaches
   * ({@link AllowedClasses#forType}); a service's codecs are built with {@link #codecFor(Type, ClassLoader,
   * AllowedClasses)} instead, so that they allow what the whole service reaches.
   */
  default ObjectCodec codecFor(Type type, ClassLoader classLoader) {
    return codecFor(type, classLoader, AllowedClasses.forType(type, classLoader));
  }
}
