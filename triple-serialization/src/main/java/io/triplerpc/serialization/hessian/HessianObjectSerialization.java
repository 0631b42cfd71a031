package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.triplerpc.serialization.internal.PerAllowedClasses;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import java.lang.reflect.Type;

/**
 * Hessian 2 through Apache Dubbo's hessian-lite: the default serialization of non-protobuf services, and
 * the one Dubbo's Triple uses by default, so its bytes are what a Dubbo peer reads and writes.
 *
 * <p>Over plain hessian-lite it adds {@link java.util.Optional} support and allows classes that are not
 * {@link java.io.Serializable} (records and POJOs need not declare it); records, enums, {@code java.time},
 * {@code BigDecimal}, collections and exceptions use hessian-lite's own serializers. Classes a peer names
 * are loaded through hessian-lite's class factory, which refuses the classes on its deny list.
 *
 * <p>Thread-safe. One {@code SerializerFactory} (and its serializer caches) is shared per class loader;
 * each thread reuses one pair of hessian streams.
 */
public final class HessianObjectSerialization implements ObjectSerialization {

  /** Dubbo writes hessian2 as {@code "hessian4"} in its wrappers and reads either. */
  private static final String WIRE_NAME = "hessian4";

  /**
   * One factory per class loader and allowed set, each caching its serializers and deserializers: a cache
   * shared by services that allow different classes would let one service's allowed names through another.
   * Each lives as long as the codecs that use it.
   */
  private final PerAllowedClasses<SerializerFactory> factories = new PerAllowedClasses<>((loader, allowed) -> {
    SerializerFactory factory = new CheckedSerializerFactory(loader, allowed);
    factory.setAllowNonSerializable(true);
    factory.addFactory(new OptionalSerializerFactory());
    return factory;
  });

  /** Creates the serialization; {@link ObjectSerializations#named} returns a shared instance. */
  public HessianObjectSerialization() {}

  @Override
  public String name() {
    return ObjectSerializations.HESSIAN2;
  }

  @Override
  public String wireName() {
    return WIRE_NAME;
  }

  @Override
  public boolean readsWireName(String serializeType) {
    return WIRE_NAME.equals(serializeType) || ObjectSerializations.HESSIAN2.equals(serializeType);
  }

  @Override
  public ObjectCodec codecFor(Type type, ClassLoader classLoader, AllowedClasses allowed) {
    ClassLoader loader = classLoader == null ? getClass().getClassLoader() : classLoader;
    return new HessianCodec(type, factories.get(loader, allowed));
  }

  @Override
  public String toString() {
    return "HessianObjectSerialization";
  }
}
