package io.triplerpc.serialization.wrapper;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.object.ObjectSerialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests of a method name that several unary methods share (Java overloads): each request names its
 * overload, and is read as that overload's arguments, an {@link Chosen}.
 *
 * <p>A request wrapper names its overload by {@code argTypes}, {@code Class.getName()} of each declared
 * parameter type, as Dubbo writes them and as Dubbo's servers choose by them: the list must equal one
 * overload's exactly (a wrapper with no {@code argTypes} is taken by its number of arguments, if one
 * overload alone has that many). A JSON body (Connect unary, curl) names none, so it is chosen by its
 * shape ({@link #withSubtype}). No match is a {@link MalformedMessageException} naming what was received
 * and the overloads there are.
 *
 * <p>Built once per method name when a service is exported; immutable and thread-safe. Only a service
 * with overloads has one: the methods of other names keep their own codecs.
 */
public final class OverloadedArguments implements MessageCodec<Object> {

  /**
   * A request read: the index of its overload among those the codec was built with, and its arguments,
   * an {@link InSerialization} of the argument array (a wrapper) or the argument array itself (JSON).
   */
  public record Chosen(int overload, Object arguments) {}

  private static final ObjectMapper TREE = new ObjectMapper();

  private final String where;
  private final List<Method> methods;
  private final RequestWrapperCodec[] wrappers;
  /** The overload of each {@code argTypes} list. */
  private final Map<List<String>, Integer> byArgTypes = new HashMap<>();
  /** The overloads' JSON codecs, or null in the wrapper form. */
  private final JsonArguments[] json;

  private OverloadedArguments(String where, List<Method> methods, RequestWrapperCodec[] wrappers,
      JsonArguments[] json) {
    this.where = where;
    this.methods = methods;
    this.wrappers = wrappers;
    this.json = json;
    for (int i = 0; i < wrappers.length; i++) {
      if (byArgTypes.put(wrappers[i].argTypes(), i) != null) {
        throw new IllegalArgumentException(where + " has two overloads of parameter types " + wrappers[i].argTypes());
      }
    }
  }

  /**
   * The codec of the overloads whose codecs are {@code overloads}, in their order (which is the order of
   * {@link Chosen#overload()}).
   *
   * @param where names the method in error messages ({@code pkg.Service.name})
   * @throws IllegalArgumentException if two overloads have the same parameter types
   */
  public static OverloadedArguments of(String where, List<WrapperCodecs> overloads) {
    requireNonNull(where, "where");
    List<Method> methods = new ArrayList<>();
    RequestWrapperCodec[] wrappers = new RequestWrapperCodec[overloads.size()];
    for (int i = 0; i < wrappers.length; i++) {
      methods.add(overloads.get(i).method());
      wrappers[i] = (RequestWrapperCodec) overloads.get(i).arguments();
    }
    return new OverloadedArguments(where, List.copyOf(methods), wrappers, null);
  }

  /** The serializations the wrapper form reads, the first overload's own first. */
  public List<ObjectSerialization> serializations() {
    return wrappers[0].serializations();
  }

  @Override
  public String subtype() {
    return json == null ? WrapperCodecs.SUBTYPE : JsonArguments.SUBTYPE;
  }

  /**
   * For {@code "json"}: a body chosen by its shape. An empty body (or {@code []}) is the overload without
   * parameters; a JSON array of n values, n other than 1, the overload of n parameters; any other body the
   * one argument of the overload of one parameter. If the body could be read both ways (an array, and
   * an overload of one parameter that takes an array, a collection or any object) or two overloads have
   * the count chosen, the request is refused: JSON cannot tell them apart.
   */
  @Override
  public MessageCodec<Object> withSubtype(String subtype) {
    if (subtype.equals(subtype())) {
      return this;
    }
    if (!JsonArguments.SUBTYPE.equals(subtype)) {
      return null;
    }
    JsonArguments[] forms = new JsonArguments[wrappers.length];
    for (int i = 0; i < forms.length; i++) {
      forms[i] = (JsonArguments) wrappers[i].withSubtype(subtype);
    }
    return new OverloadedArguments(where, methods, wrappers, forms);
  }

  @Override
  public int serializedSize(Object value) {
    return -1;
  }

  /** Writes a {@link Chosen} in its overload's form: for tests and relays; clients write an overload's own codec. */
  @Override
  public void write(Object value, OutputStream out) throws IOException {
    Chosen chosen = (Chosen) value;
    if (json != null) {
      json[chosen.overload()].write((Object[]) chosen.arguments(), out);
    } else if (chosen.arguments() instanceof InSerialization<?> in) {
      wrappers[chosen.overload()].write((Object[]) in.value(), in.serialization(), out);
    } else {
      wrappers[chosen.overload()].write((Object[]) chosen.arguments(), out);
    }
  }

  @Override
  public Object read(InputStream in) throws IOException {
    if (json != null) {
      return readJson(in.readAllBytes());
    }
    TripleRequestWrapper wrapper;
    try {
      wrapper = TripleRequestWrapper.parseFrom(in);
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed("TripleRequestWrapper", where, e);
    }
    return readWrapper(wrapper);
  }

  @Override
  public Object read(ByteBuffer source) throws IOException {
    if (json != null) {
      byte[] body = new byte[source.remaining()];
      source.get(body);
      return readJson(body);
    }
    TripleRequestWrapper wrapper;
    try {
      wrapper = TripleRequestWrapper.parseFrom(WireFormat.input(source));
    } catch (InvalidProtocolBufferException e) {
      throw WireFormat.malformed("TripleRequestWrapper", where, e);
    }
    return readWrapper(wrapper);
  }

  private Chosen readWrapper(TripleRequestWrapper wrapper) throws IOException {
    List<String> argTypes = wrapper.getArgTypesList();
    // A peer that names no types (while sending arguments) is taken at its count, if that chooses one.
    Integer overload = argTypes.isEmpty() && wrapper.getArgsCount() > 0 ? onlyOneTaking(wrapper.getArgsCount())
        : byArgTypes.get(argTypes);
    if (overload == null) {
      throw new MalformedMessageException(where + ": no overload takes argument types " + argTypes
          + (argTypes.isEmpty() ? " (none named, and " + wrapper.getArgsCount() + " argument(s) do not choose one)" : "")
          + "; the overloads are " + overloads(), null);
    }
    return new Chosen(overload, wrappers[overload].decode(wrapper));
  }

  private Chosen readJson(byte[] body) throws IOException {
    JsonNode tree;
    try {
      tree = isBlank(body) ? null : TREE.readTree(body);
    } catch (IOException e) {
      throw new MalformedMessageException("Malformed JSON for the arguments of " + where + ": " + e.getMessage(), e);
    }
    if (tree == null || tree.isArray() && tree.size() != 1) {
      int count = tree == null ? 0 : tree.size();
      Integer overload = onlyOneTaking(count);
      if (overload != null) {
        Integer single = onlyOneTaking(1);
        if (single != null && mayBeArray(methods.get(single).getGenericParameterTypes()[0])) {
          throw ambiguous("a JSON array of " + count + " value(s) is the arguments of "
              + signature(methods.get(overload)) + " and the one argument of " + signature(methods.get(single)));
        }
        return new Chosen(overload, json[overload].read(new ByteArrayInputStream(body)));
      }
      if (tree == null || taking(count) > 1) {
        throw ambiguous(taking(count) > 1 ? count + " arguments fit " + taking(count) + " overloads"
            : "an empty body fits no overload");
      }
    }
    int takingOne = taking(1);
    if (takingOne != 1) {
      throw ambiguous(takingOne == 0 ? "no overload takes that body as its one argument"
          : "a body of one argument fits " + takingOne + " overloads");
    }
    int overload = onlyOneTaking(1);
    return new Chosen(overload, json[overload].read(new ByteArrayInputStream(body)));
  }

  private MalformedMessageException ambiguous(String why) {
    return new MalformedMessageException(where + " is overloaded, and a JSON body chooses an overload by its number"
        + " of arguments: " + why + "; the overloads are " + overloads()
        + " (a wrapper request names its argTypes; a REST route names its overload)", null);
  }

  /** The overload alone in taking {@code count} arguments, or null if none or several do. */
  private Integer onlyOneTaking(int count) {
    Integer found = null;
    for (int i = 0; i < methods.size(); i++) {
      if (methods.get(i).getParameterCount() == count) {
        if (found != null) {
          return null;
        }
        found = i;
      }
    }
    return found;
  }

  private int taking(int count) {
    int found = 0;
    for (Method method : methods) {
      found += method.getParameterCount() == count ? 1 : 0;
    }
    return found;
  }

  /** Whether a JSON array may be a value of {@code type}. */
  private static boolean mayBeArray(Type type) {
    Class<?> raw = Types.rawClass(type);
    return raw.isArray() || Collection.class.isAssignableFrom(raw) || Iterable.class == raw || raw == Object.class
        || raw.getName().startsWith("com.fasterxml.jackson.databind.");
  }

  private static boolean isBlank(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }

  /** The overloads as {@code name(type, type)}, for messages. */
  public String overloads() {
    List<String> signatures = new ArrayList<>();
    for (Method method : methods) {
      signatures.add(signature(method));
    }
    return String.join(", ", signatures);
  }

  private static String signature(Method method) {
    List<String> types = new ArrayList<>();
    Arrays.stream(method.getParameterTypes()).forEach(type -> types.add(type.getName()));
    return method.getName() + "(" + String.join(", ", types) + ")";
  }

  @Override
  public String toString() {
    return "OverloadedArguments{" + where + ", " + overloads() + (json != null ? ", json" : "") + '}';
  }
}
