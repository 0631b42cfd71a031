package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.AbstractHessianOutput;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import com.alibaba.com.caucho.hessian.io.Serializer;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.io.IOException;
import java.util.Set;

/**
 * A hessian-lite factory that checks every class name the stream holds against one service's
 * {@link AllowedClasses} before it looks the name up, loads the class or builds a deserializer for it.
 *
 * <p>Every name hessian-lite reads (an object definition, a typed list or map, an array's element type, the
 * class an expected type is read with) passes through {@link #getDeserializer(String)}, and this check
 * runs ahead of the factory's name cache, so a name another service's factory allowed is no shortcut. The
 * refusal is thrown, not turned into a map as hessian-lite does with classes its own deny list refuses:
 * the call fails naming the class. The deny list of hessian-lite's class factory still applies after this.
 */
final class CheckedSerializerFactory extends SerializerFactory {

  /** hessian-lite's own names for its basic types, which name no class (with "[" for arrays of them). */
  private static final Set<String> BASIC_TYPES = Set.of(
      "null", "boolean", "byte", "short", "int", "long", "float", "double", "char", "string", "date", "object",
      "list", "map");

  /**
   * Classes hessian-lite needs for an {@code EnumSet}: a handle holding the element class and the
   * constants. Allowed here only because {@link CheckedClassDeserializer} checks the class a
   * {@code java.lang.Class} value names.
   */
  private static final Set<String> ENUM_SET = Set.of(
      "java.lang.Class", "com.alibaba.com.caucho.hessian.io.EnumSetHandler");

  private final AllowedClasses allowed;

  CheckedSerializerFactory(ClassLoader loader, AllowedClasses allowed) {
    super(loader);
    this.allowed = allowed;
  }

  @Override
  public Deserializer getDeserializer(String type) throws HessianProtocolException {
    if (type != null && DubboGenericExceptionDeserializer.NAMES.contains(type)) {
      return DubboGenericExceptionDeserializer.INSTANCE;
    }
    if (type != null && !type.isEmpty() && !isBasic(type) && !ENUM_SET.contains(type) && !allowed.allows(type)) {
      throw new Refused(allowed.refusal(type));
    }
    return super.getDeserializer(type);
  }

  /**
   * Writes an exception whose class the service's signatures do not reach (a cause from a JDBC driver,
   * an undeclared exception) as a {@link RemoteServiceException} with its class name, message, stack
   * trace, cause and suppressed exceptions, each of those written the same way: a reader with the same
   * service allows the stand-in, where the class itself would fail the whole call. The exceptions the
   * service declares, and the JDK's common ones, travel as themselves.
   */
  @Override
  @SuppressWarnings("rawtypes") // hessian-lite's signature
  public Serializer getSerializer(Class cl) throws HessianProtocolException {
    if (Throwable.class.isAssignableFrom(cl) && !allowed.allows(cl.getName())) {
      return StandIn.INSTANCE;
    }
    return super.getSerializer(cl);
  }

  /** Writes the {@link RemoteServiceException} standing in for an exception. */
  private enum StandIn implements Serializer {
    INSTANCE;

    @Override
    public void writeObject(Object value, AbstractHessianOutput out) throws IOException {
      // Its cause and suppressed exceptions are written through this factory too: each gets a stand-in
      // of its own where needed.
      out.writeObject(RemoteServiceException.standingIn((Throwable) value));
    }
  }

  @Override
  @SuppressWarnings("rawtypes") // hessian-lite's signature
  protected Deserializer loadDeserializer(Class cl) throws HessianProtocolException {
    // hessian-lite's own Class deserializer loads whatever class a value names.
    return cl == Class.class ? new CheckedClassDeserializer(getClassLoader(), allowed) : super.loadDeserializer(cl);
  }

  private static boolean isBasic(String type) {
    int start = 0;
    while (start < type.length() && type.charAt(start) == '[') {
      start++;
    }
    return BASIC_TYPES.contains(start == 0 ? type : type.substring(start));
  }

  /** Carries a refusal through hessian-lite, whose methods declare only its own exception. */
  static final class Refused extends HessianProtocolException {
    private static final long serialVersionUID = 1L;

    Refused(Exception refusal) {
      super(refusal.getMessage(), refusal);
    }
  }
}
