package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.AbstractDeserializer;
import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.io.IOException;
import java.util.Set;

/**
 * Reads the {@code GenericException} a Dubbo provider answers a generic call's failure with (Dubbo turns
 * whatever the method threw into one: the thrown class's name and message, as {@code exceptionClass} and
 * {@code exceptionMessage}) as the {@link RemoteServiceException} standing in for the exception thrown,
 * without Dubbo's class, which a Triple application does not have.
 */
final class DubboGenericExceptionDeserializer extends AbstractDeserializer {

  /** Dubbo 3's class and the Dubbo 2 one it still sends, with {@code dubbo-compatible} on its class path. */
  static final Set<String> NAMES = Set.of(
      "org.apache.dubbo.rpc.service.GenericException", "com.alibaba.dubbo.rpc.service.GenericException");

  static final DubboGenericExceptionDeserializer INSTANCE = new DubboGenericExceptionDeserializer();

  private DubboGenericExceptionDeserializer() {}

  @Override
  public Class<?> getType() {
    return RemoteServiceException.class;
  }

  @Override
  public Object readMap(AbstractHessianInput in) throws IOException {
    int ref = in.addRef(null);
    Fields fields = new Fields();
    while (!in.isEnd()) {
      fields.read(in.readString(), in);
    }
    in.readMapEnd();
    return fields.standIn(in, ref);
  }

  @Override
  public Object readObject(AbstractHessianInput in, Object[] names) throws IOException {
    int ref = in.addRef(null);
    Fields fields = new Fields();
    for (Object name : names) {
      fields.read((String) name, in);
    }
    return fields.standIn(in, ref);
  }

  /** The fields that matter; the rest (detail message, cause, suppressed exceptions) are read and dropped. */
  private static final class Fields {
    String exceptionClass;
    String exceptionMessage;
    Object stackTrace;

    void read(String name, AbstractHessianInput in) throws IOException {
      switch (name) {
        case "exceptionClass" -> exceptionClass = in.readString();
        case "exceptionMessage" -> exceptionMessage = in.readString();
        case "stackTrace" -> stackTrace = in.readObject(StackTraceElement[].class);
        default -> in.readObject();
      }
    }

    RemoteServiceException standIn(AbstractHessianInput in, int ref) throws IOException {
      RemoteServiceException standIn = new RemoteServiceException(
          exceptionClass != null ? exceptionClass : "org.apache.dubbo.rpc.service.GenericException", exceptionMessage);
      if (stackTrace instanceof StackTraceElement[] trace) {
        standIn.setStackTrace(trace);
      }
      in.setRef(ref, standIn);
      return standIn;
    }
  }
}
