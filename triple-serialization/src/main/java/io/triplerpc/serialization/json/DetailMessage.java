package io.triplerpc.serialization.json;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * Sets the message of an exception built without one. {@code Throwable.detailMessage} has no setter
 * and java.base is closed to reflection, so this writes the field as hessian-lite does, through
 * {@code sun.misc.Unsafe} (module jdk.unsupported); where that is unavailable the message stays unset.
 */
final class DetailMessage {

  private static final Unsafe UNSAFE;
  private static final long OFFSET;

  static {
    Unsafe unsafe = null;
    long offset = -1;
    try {
      Field theUnsafe = Unsafe.class.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      unsafe = (Unsafe) theUnsafe.get(null);
      offset = unsafe.objectFieldOffset(Throwable.class.getDeclaredField("detailMessage"));
    } catch (ReflectiveOperationException | RuntimeException e) {
      unsafe = null;
    }
    UNSAFE = unsafe;
    OFFSET = offset;
  }

  private DetailMessage() {}

  static void set(Throwable throwable, String message) {
    if (UNSAFE != null) {
      UNSAFE.putObject(throwable, OFFSET, message);
    }
  }
}
