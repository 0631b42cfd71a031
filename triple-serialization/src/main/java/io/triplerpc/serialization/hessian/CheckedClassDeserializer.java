package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.AbstractDeserializer;
import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import io.triplerpc.serialization.object.AllowedClasses;
import java.io.IOException;
import java.util.Map;

/**
 * Reads a {@code java.lang.Class} value (its one field is the class name), as hessian-lite's
 * {@code ClassDeserializer} does, but only for a class the service allows, and without initializing it.
 * hessian-lite writes one inside every {@code EnumSet}, naming the enum.
 */
final class CheckedClassDeserializer extends AbstractDeserializer {

  private static final Map<String, Class<?>> PRIMITIVES = Map.of(
      "void", void.class, "boolean", boolean.class, "byte", byte.class, "char", char.class, "short", short.class,
      "int", int.class, "long", long.class, "float", float.class, "double", double.class);

  private final ClassLoader loader;
  private final AllowedClasses allowed;

  CheckedClassDeserializer(ClassLoader loader, AllowedClasses allowed) {
    this.loader = loader;
    this.allowed = allowed;
  }

  @Override
  public Class<?> getType() {
    return Class.class;
  }

  @Override
  public Object readMap(AbstractHessianInput in) throws IOException {
    int ref = in.addRef(null);
    String name = null;
    while (!in.isEnd()) {
      String key = in.readString();
      if (key.equals("name")) {
        name = in.readString();
      } else {
        in.readObject();
      }
    }
    in.readMapEnd();
    Class<?> value = resolve(name);
    in.setRef(ref, value);
    return value;
  }

  @Override
  public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
    int ref = in.addRef(null);
    String name = null;
    for (Object field : fields) {
      if ("name".equals(field)) {
        name = in.readString();
      } else {
        in.readObject();
      }
    }
    Class<?> value = resolve(name);
    in.setRef(ref, value);
    return value;
  }

  private Class<?> resolve(String name) throws IOException {
    if (name == null) {
      throw new IOException("A serialized java.lang.Class has no name");
    }
    Class<?> primitive = PRIMITIVES.get(name);
    if (primitive != null) {
      return primitive;
    }
    if (!allowed.allows(name)) {
      throw new CheckedSerializerFactory.Refused(allowed.refusal(name));
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IOException("Cannot load the serialized class " + name + ": " + e, e);
    }
  }
}
