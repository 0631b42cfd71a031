package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.PerServiceSerialization;
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
public final class HessianObjectSerialization extends PerServiceSerialization<SerializerFactory> {

  /** Dubbo writes hessian2 as {@code "hessian4"} in its wrappers and reads either. */
  private static final String WIRE_NAME = "hessian4";

  /** Creates the serialization; {@link ObjectSerializations#named} returns a shared instance. */
  public HessianObjectSerialization() {
    super(ObjectSerializations.HESSIAN2, WIRE_NAME, (loader, allowed) -> {
      SerializerFactory factory = new CheckedSerializerFactory(loader, allowed);
      factory.setAllowNonSerializable(true);
      factory.addFactory(new OptionalSerializerFactory());
      return factory;
    });
  }

  @Override
  public boolean readsWireName(String serializeType) {
    return WIRE_NAME.equals(serializeType) || ObjectSerializations.HESSIAN2.equals(serializeType);
  }

  @Override
  protected ObjectCodec newCodec(Type type, SerializerFactory factory, AllowedClasses allowed) {
    return new HessianCodec(type, factory);
  }
}
