package io.triplerpc.serialization.wrapper;

import com.google.protobuf.InvalidProtocolBufferException;
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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A method's argument list as a {@code TripleRequestWrapper}: each argument serialized on its own, with the
 * serialization's wire name and {@code Class.getName()} of each declared parameter type, as Dubbo writes it.
 *
 * <p>Writing serializes the arguments into the thread's {@link Scratch} buffer, then writes the wrapper
 * around them: the {@code serializeType} and {@code argTypes} fields never change for a method, so their
 * bytes are encoded once here.
 */
final class RequestWrapperCodec implements MessageCodec<Object[]> {

  private static final Object[] NO_ARGUMENTS = {};

  private final String where;
  private final ClassLoader classLoader;
  private final List<Type> types;
  private final AllowedClasses allowed;
  private final ObjectSerialization serialization;
  private final ObjectCodec[] codecs;
  private final Class<?>[] rawTypes;
  private final List<String> argTypes;
  /** The encoded field 1, {@code serializeType}, which comes first. */
  private final byte[] serializeTypeField;
  /** The encoded fields 3, {@code argTypes}, which come last. */
  private final byte[] argTypesFields;

  RequestWrapperCodec(String where, ObjectSerialization serialization, ClassLoader classLoader, List<Type> types,
      AllowedClasses allowed) {
    this.where = where;
    this.classLoader = classLoader;
    this.types = List.copyOf(types);
    this.allowed = allowed;
    this.serialization = serialization;
    this.codecs = new ObjectCodec[types.size()];
    this.rawTypes = new Class<?>[types.size()];
    List<String> names = new ArrayList<>(types.size());
    for (int i = 0; i < codecs.length; i++) {
      codecs[i] = serialization.codecFor(types.get(i), classLoader, allowed);
      rawTypes[i] = Types.rawClass(types.get(i));
      names.add(rawTypes[i].getName());
    }
    this.argTypes = List.copyOf(names);
    this.serializeTypeField =
        TripleRequestWrapper.newBuilder().setSerializeType(serialization.wireName()).build().toByteArray();
    this.argTypesFields = TripleRequestWrapper.newBuilder().addAllArgTypes(argTypes).build().toByteArray();
  }

  @Override
  public String subtype() {
    return WrapperCodecs.SUBTYPE;
  }

  /** The arguments as one JSON body for {@code "json"} (Connect unary, curl); this for the wrapper's own. */
  @Override
  public MessageCodec<Object[]> withSubtype(String subtype) {
    if (JsonArguments.SUBTYPE.equals(subtype)) {
      return new JsonArguments(where, classLoader, types, allowed);
    }
    return MessageCodec.super.withSubtype(subtype);
  }

  @Override
  public int serializedSize(Object[] arguments) {
    return -1;
  }

  @Override
  public void write(Object[] arguments, OutputStream out) throws IOException {
    Object[] values = arguments == null ? NO_ARGUMENTS : arguments;
    if (values.length != codecs.length) {
      throw new IllegalArgumentException(
          where + " takes " + codecs.length + " argument(s), " + values.length + " given");
    }
    Scratch scratch = Scratch.acquire();
    try {
      int[] ends = new int[values.length];
      for (int i = 0; i < values.length; i++) {
        try {
          codecs[i].write(values[i], scratch);
        } catch (IOException e) {
          throw new IOException(where + ": argument " + i + ": " + e.getMessage(), e);
        }
        ends[i] = scratch.size();
      }
      out.write(serializeTypeField);
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

  @Override
  public Object[] read(InputStream in) throws IOException {
    TripleRequestWrapper wrapper;
    try {
      wrapper = TripleRequestWrapper.parseFrom(in);
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed("TripleRequestWrapper", where, e);
    }
    return decode(wrapper);
  }

  @Override
  public Object[] read(ByteBuffer source) throws IOException {
    TripleRequestWrapper wrapper;
    try {
      wrapper = TripleRequestWrapper.parseFrom(WireFormat.input(source));
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed("TripleRequestWrapper", where, e);
    }
    return decode(wrapper);
  }

  private Object[] decode(TripleRequestWrapper wrapper) throws IOException {
    String serializeType = wrapper.getSerializeType();
    if (!serialization.readsWireName(serializeType)) {
      throw new IOException(where + " reads " + serialization.name() + " arguments (serializeType '"
          + serialization.wireName() + "'), but the request's serializeType is '" + serializeType + "'");
    }
    int count = wrapper.getArgsCount();
    if (count != codecs.length) {
      throw new IOException(where + " takes " + codecs.length + " argument(s), but the request carries " + count);
    }
    if (!typesMatch(wrapper.getArgTypesList())) {
      throw new IOException(where + " declares argument types " + argTypes + ", but the request says "
          + wrapper.getArgTypesList());
    }
    Object[] values = new Object[count];
    for (int i = 0; i < count; i++) {
      Object value;
      try {
        value = codecs[i].read(wrapper.getArgs(i).newInput());
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
    return values;
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
    return "RequestWrapperCodec{" + where + ", " + serialization.name() + '}';
  }
}
