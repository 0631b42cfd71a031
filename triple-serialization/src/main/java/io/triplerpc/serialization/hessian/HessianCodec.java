package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.triplerpc.serialization.internal.DeclaredTypeCodec;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Map;

/**
 * Hessian 2 codec of one declared type. Hessian names every object's class in the stream, so the declared
 * type is only a hint: it picks the reader of the top-level value and, for collections and maps, of the
 * elements whose class the stream does not tell ({@code Short} and {@code Byte} travel as {@code int},
 * {@code Float} as {@code double}, {@code Character} as a one-character string).
 */
final class HessianCodec extends DeclaredTypeCodec {

  /**
   * The element class (collections) or key and value classes (maps) hessian must be told, {@code null} for
   * those it reads right by itself; {@code null} when it needs none.
   */
  private final Class<?>[] elementClasses;
  private final SerializerFactory factory;

  HessianCodec(Type type, SerializerFactory factory) {
    super(type, "hessian2");
    this.elementClasses = elementClasses(rawClass, Types.rawTypeArguments(type));
    this.factory = factory;
  }

  @Override
  public void write(Object value, OutputStream out) throws IOException {
    HessianStreams streams = HessianStreams.current();
    Hessian2Output output = streams.acquireOutput(factory, out);
    try {
      output.writeObject(value);
      output.flushBuffer();
    } catch (IOException | RuntimeException e) {
      // hessian-lite reports a class it cannot write (not Serializable, a lambda, ...) as a RuntimeException.
      throw cannotWrite(value, e);
    } finally {
      streams.release(output);
    }
  }

  @Override
  public Object read(InputStream in) throws IOException {
    HessianStreams streams = HessianStreams.current();
    Hessian2Input input = streams.acquireInput(factory, in);
    Object value;
    boolean trailingBytes;
    try {
      value = elementClasses == null ? input.readObject(rawClass) : input.readObject(rawClass, elementClasses);
      trailingBytes = input.read() != -1;
    } catch (IOException | RuntimeException e) {
      ClassNotAllowedException refused = refusal(e);
      if (refused != null) {
        throw refused;
      }
      // Garbage makes hessian-lite fail in many ways (protocol errors, class casts, indexes out of
      // bounds, ...); to the caller all of them are malformed input.
      throw malformed(e.toString(), e);
    } catch (StackOverflowError e) {
      // hessian-lite reads nested values by recursion: a stream of lists within lists, two bytes a level,
      // runs the reading thread out of stack (AllowListFuzzTest: lists-nested-200000-deep). As the
      // fastjson2 codec does, that is malformed input; the stack unwound, nothing is held.
      throw malformed("it nests values deeper than the reading thread's stack", e);
    } catch (OutOfMemoryError e) {
      // hessian-lite allocates what a count in the stream says before reading what it counts (a class
      // definition's field names, an array's elements): a few bytes may ask for more than the heap. The
      // allocation failed, so nothing of it is held; the peer's input is malformed, not this process
      // broken (AllowListFuzzTest found it: a class definition whose field count asks for gigabytes).
      throw malformed("it declares more than memory holds (" + e.getMessage() + ")", e);
    } finally {
      streams.release(input);
    }
    if (trailingBytes) {
      throw malformed("bytes follow the value");
    }
    return checked(value);
  }

  private static Class<?>[] elementClasses(Class<?> rawClass, Class<?>[] arguments) {
    boolean collection = Collection.class.isAssignableFrom(rawClass) && arguments.length == 1;
    boolean map = Map.class.isAssignableFrom(rawClass) && arguments.length == 2;
    if (!collection && !map) {
      return null;
    }
    boolean any = false;
    Class<?>[] classes = new Class<?>[arguments.length];
    for (int i = 0; i < arguments.length; i++) {
      // hessian-lite reads every element with the reader of a class it is told; that suits only the
      // basic classes it would otherwise read as another (it cannot read an object that way).
      if (isNarrowedBasic(arguments[i])) {
        classes[i] = arguments[i];
        any = true;
      }
    }
    return any ? classes : null;
  }

  private static boolean isNarrowedBasic(Class<?> type) {
    return type == Short.class || type == Byte.class || type == Float.class || type == Character.class;
  }
}
