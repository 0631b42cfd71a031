package io.triplerpc.serialization.protobuf;

import com.google.protobuf.MessageLite;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serialization;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/** Serializes generated protobuf message classes (full or lite runtime). */
public final class ProtobufSerialization implements Serialization {

  @Override
  public String name() {
    return "protobuf";
  }

  @Override
  public boolean supports(Class<?> type) {
    return MessageLite.class.isAssignableFrom(type)
        && !type.isInterface()
        && !Modifier.isAbstract(type.getModifiers());
  }

  @Override
  public <T> MessageCodec<T> codecFor(Class<T> type) {
    if (!supports(type)) {
      throw new IllegalArgumentException(type.getName() + " is not a generated protobuf message class");
    }
    return new ProtobufCodec<>(type, defaultInstance(type));
  }

  private static MessageLite defaultInstance(Class<?> type) {
    try {
      Method method = type.getMethod("getDefaultInstance");
      return (MessageLite) method.invoke(null);
    } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalArgumentException(
          type.getName() + " has no public static getDefaultInstance(): not a generated message class", e);
    }
  }
}
