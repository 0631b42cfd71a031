package io.triplerpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.modules.ObjectWriterModule;
import com.alibaba.fastjson2.writer.ObjectWriter;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.lang.reflect.Type;

/**
 * Writes an exception whose class the service's signatures do not reach (a cause from a driver, an
 * undeclared exception) as a {@link RemoteServiceException}, with its own {@code "@type"}: a reader of the
 * same service allows the stand-in, where the class itself would fail the whole call. Declared exceptions
 * and the JDK's common ones are written as themselves, as Dubbo writes them.
 *
 * <p>A module of one service's writer provider, which asks it first for every class it writes.
 */
final class ThrowableStandIns implements ObjectWriterModule {

  private final AllowedClasses allowed;

  ThrowableStandIns(AllowedClasses allowed) {
    this.allowed = allowed;
  }

  @Override
  @SuppressWarnings("rawtypes") // fastjson2's signature
  public ObjectWriter getObjectWriter(Type objectType, Class objectClass) {
    if (objectClass != null && Throwable.class.isAssignableFrom(objectClass)
        && !allowed.allows(objectClass.getName())) {
      return StandIn.INSTANCE;
    }
    return null;
  }

  /** Writes the {@link RemoteServiceException} standing in for an exception. */
  private enum StandIn implements ObjectWriter<Throwable> {
    INSTANCE;

    @Override
    public void write(JSONWriter writer, Object value, Object fieldName, Type fieldType, long features) {
      // Its cause and suppressed exceptions go through this module too: each gets a stand-in where needed.
      writer.getObjectWriter(RemoteServiceException.class, RemoteServiceException.class)
          .write(writer, RemoteServiceException.standingIn((Throwable) value), fieldName, fieldType, features);
    }

    @Override
    public void writeJSONB(JSONWriter writer, Object value, Object fieldName, Type fieldType, long features) {
      writer.getObjectWriter(RemoteServiceException.class, RemoteServiceException.class)
          .writeJSONB(writer, RemoteServiceException.standingIn((Throwable) value), fieldName, fieldType, features);
    }
  }
}
