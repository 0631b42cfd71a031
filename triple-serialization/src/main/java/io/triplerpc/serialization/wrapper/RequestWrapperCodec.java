package io.triplerpc.serialization.wrapper;

import com.google.protobuf.CodedInputStream;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.ObjectCodec;
import io.triplerpc.serialization.object.ObjectSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * A method's argument list as a {@code TripleRequestWrapper}: each argument serialized on its own, with the
 * serialization's wire name and {@code Class.getName()} of each declared parameter type, as Dubbo writes it.
 * It reads the arguments in whichever of the method's serializations the wrapper names.
 *
 * <p>Writing serializes the arguments into the thread's {@link Scratch} buffer, then writes the wrapper
 * around them: the {@code serializeType} and {@code argTypes} fields never change for a method and a
 * serialization, so their bytes are encoded once here.
 */
final class RequestWrapperCodec extends AbstractWrapperCodec<Object[], TripleRequestWrapper> {

  private static final Object[] NO_ARGUMENTS = {};

  private final ClassLoader classLoader;
  private final List<Type> types;
  private final AllowedClasses allowed;
  /** The argument codecs of each accepted serialization, in its order. */
  private final ObjectCodec[][] codecs;
  private final Class<?>[] rawTypes;
  private final List<String> argTypes;
  /** The encoded fields 3, {@code argTypes}, which come last. */
  private final byte[] argTypesFields;

  RequestWrapperCodec(String where, Accepted accepted, ClassLoader classLoader, List<Type> types,
      AllowedClasses allowed) {
    super(where, accepted, "TripleRequestWrapper",
        wireName -> TripleRequestWrapper.newBuilder().setSerializeType(wireName).build().toByteArray());
    this.classLoader = classLoader;
    this.types = List.copyOf(types);
    this.allowed = allowed;
    this.rawTypes = new Class<?>[types.size()];
    List<String> names = new ArrayList<>(types.size());
    for (int i = 0; i < rawTypes.length; i++) {
      rawTypes[i] = Types.rawClass(types.get(i));
      names.add(rawTypes[i].getName());
    }
    this.codecs = new ObjectCodec[accepted.size()][];
    for (int s = 0; s < accepted.size(); s++) {
      ObjectSerialization serialization = accepted.get(s);
      codecs[s] = new ObjectCodec[types.size()];
      for (int i = 0; i < rawTypes.length; i++) {
        codecs[s][i] = serialization.codecFor(types.get(i), classLoader, allowed);
      }
    }
    this.argTypes = List.copyOf(names);
    this.argTypesFields = TripleRequestWrapper.newBuilder().addAllArgTypes(argTypes).build().toByteArray();
  }

  /** The arguments as one JSON body for {@code "json"} (Connect unary, curl); this for the wrapper's own. */
  @Override
  public MessageCodec<Object[]> withSubtype(String subtype) {
    if (JsonArguments.SUBTYPE.equals(subtype)) {
      return new JsonArguments(where, classLoader, types, allowed);
    }
    return super.withSubtype(subtype);
  }

  @Override
  void write(Object[] arguments, int serialization, OutputStream out) throws IOException {
    Object[] values = arguments == null ? NO_ARGUMENTS : arguments;
    ObjectCodec[] inSerialization = codecs[serialization];
    if (values.length != inSerialization.length) {
      throw new IllegalArgumentException(
          where + " takes " + inSerialization.length + " argument(s), " + values.length + " given");
    }
    Scratch scratch = Scratch.acquire();
    try {
      int[] ends = new int[values.length];
      for (int i = 0; i < values.length; i++) {
        try {
          inSerialization[i].write(values[i], scratch);
        } catch (IOException e) {
          throw new IOException(where + ": argument " + i + ": " + e.getMessage(), e);
        }
        ends[i] = scratch.size();
      }
      out.write(serializeTypeFields[serialization]);
      int start = 0;
      for (int end : ends) {
        WireFormat.writeField2(out, scratch.array(), start, end - start);
        start = end;
      }
      out.write(argTypesFields);
    } finally {
      scratch.release();
    }
  }

  /** {@code Class.getName()} of each declared parameter type, as the wrapper's {@code argTypes} names them. */
  List<String> argTypes() {
    return argTypes;
  }

  @Override
  TripleRequestWrapper parse(InputStream in) throws IOException {
    return TripleRequestWrapper.parseFrom(in);
  }

  @Override
  TripleRequestWrapper parse(CodedInputStream in) throws IOException {
    return TripleRequestWrapper.parseFrom(in);
  }

  @Override
  InSerialization<Object[]> decode(TripleRequestWrapper wrapper) throws IOException {
    int serialization = serializationOf(wrapper.getSerializeType(), "arguments");
    int count = wrapper.getArgsCount();
    ObjectCodec[] inSerialization = codecs[serialization];
    if (count != inSerialization.length) {
      throw new IOException(
          where + " takes " + inSerialization.length + " argument(s), but the request carries " + count);
    }
    if (!typesMatch(wrapper.getArgTypesList())) {
      throw new IOException(where + " declares argument types " + argTypes + ", but the request says "
          + wrapper.getArgTypesList());
    }
    Object[] values = new Object[count];
    for (int i = 0; i < count; i++) {
      Object value;
      try {
        value = inSerialization[i].read(wrapper.getArgs(i).newInput());
      } catch (ClassNotAllowedException e) {
        // Already names the class and the service, and becomes the call's status as it is.
        throw e;
      } catch (IOException e) {
        throw new IOException(where + ": argument " + i + ": " + e.getMessage(), e);
      }
      if (value == null && rawTypes[i].isPrimitive()) {
        throw new IOException(where + ": argument " + i + " is null, but its type is " + rawTypes[i]);
      }
      values[i] = value;
    }
    return new InSerialization<>(values, accepted.get(serialization));
  }

  /**
   * Whether the request's {@code argTypes} name the declared parameter types. A peer that names none is
   * trusted to send the declared ones, as Dubbo's server trusts them; names after the declared ones are
   * ignored, because a Dubbo client's server-streaming request also names its {@code StreamObserver}
   * parameter while carrying one argument.
   */
  private boolean typesMatch(List<String> received) {
    return received.isEmpty()
        || received.size() >= argTypes.size() && argTypes.equals(received.subList(0, argTypes.size()));
  }

  @Override
  public String toString() {
    return "RequestWrapperCodec{" + where + ", " + accepted + '}';
  }
}
