package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.AbstractDeserializer;
import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.AbstractHessianOutput;
import com.alibaba.com.caucho.hessian.io.AbstractSerializer;
import com.alibaba.com.caucho.hessian.io.AbstractSerializerFactory;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.Serializer;
import java.io.IOException;
import java.util.Optional;

/**
 * Fills hessian-lite's one gap among the types Triple promises: {@link Optional}, which is not
 * {@link java.io.Serializable} and has no serializer of its own. It is written the way hessian writes any
 * object with one field, {@code java.util.Optional {value}}, so the bytes are what a hessian peer that
 * allows non-serializable classes would write for it, and read back through {@link Optional#ofNullable}
 * (so an empty optional stays the singleton and no reflection into {@code java.base} is needed).
 */
final class OptionalSerializerFactory extends AbstractSerializerFactory {

  private static final String TYPE = Optional.class.getName();
  private static final String VALUE = "value";

  @Override
  @SuppressWarnings("rawtypes") // hessian-lite's signature
  public Serializer getSerializer(Class cl) {
    return cl == Optional.class ? OptionalSerializer.INSTANCE : null;
  }

  @Override
  @SuppressWarnings("rawtypes") // hessian-lite's signature
  public Deserializer getDeserializer(Class cl) {
    return cl == Optional.class ? OptionalDeserializer.INSTANCE : null;
  }

  private static final class OptionalSerializer extends AbstractSerializer {
    static final OptionalSerializer INSTANCE = new OptionalSerializer();

    @Override
    public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
      if (out.addRef(obj)) {
        return;
      }
      Object value = ((Optional<?>) obj).orElse(null);
      int definition = out.writeObjectBegin(TYPE);
      if (definition < -1) {
        // Hessian 1 style: a typed map.
        out.writeString(VALUE);
        out.writeObject(value);
        out.writeMapEnd();
        return;
      }
      if (definition == -1) {
        out.writeClassFieldLength(1);
        out.writeString(VALUE);
        out.writeObjectBegin(TYPE);
      }
      out.writeObject(value);
    }
  }

  private static final class OptionalDeserializer extends AbstractDeserializer {
    static final OptionalDeserializer INSTANCE = new OptionalDeserializer();

    @Override
    public Class<?> getType() {
      return Optional.class;
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
      // The reference number is taken before the fields, in the order the writer took it.
      int ref = in.addRef(null);
      Object value = null;
      for (Object field : fields) {
        Object read = in.readObject();
        if (VALUE.equals(field)) {
          value = read;
        }
      }
      Optional<Object> optional = Optional.ofNullable(value);
      in.setRef(ref, optional);
      return optional;
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
      int ref = in.addRef(null);
      Object value = null;
      while (!in.isEnd()) {
        Object key = in.readObject();
        Object read = in.readObject();
        if (VALUE.equals(key)) {
          value = read;
        }
      }
      in.readMapEnd();
      Optional<Object> optional = Optional.ofNullable(value);
      in.setRef(ref, optional);
      return optional;
    }
  }
}
