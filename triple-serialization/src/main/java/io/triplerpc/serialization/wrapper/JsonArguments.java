package io.triplerpc.serialization.wrapper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.serialization.JsonParameters;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.json.JsonObjectSerialization;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.List;

/**
 * The arguments of a plain Java method as one JSON body (Connect unary and curl): the value itself for
 * a method of one parameter, a JSON array of them for several, nothing (or {@code []}) for none. Each
 * value is read and written by the JSON serialization's codec of its declared type, with the same
 * allow list as the wrapper's.
 */
final class JsonArguments implements MessageCodec<Object[]>, JsonParameters {

  static final String SUBTYPE = "json";
  private static final Object[] NO_ARGUMENTS = {};
  private static final ObjectMapper TREE = new ObjectMapper();

  private final String where;
  private final ObjectCodec[] codecs;

  JsonArguments(String where, ClassLoader classLoader, List<Type> types, AllowedClasses allowed) {
    this.where = where;
    JsonObjectSerialization json = new JsonObjectSerialization();
    this.codecs = new ObjectCodec[types.size()];
    for (int i = 0; i < codecs.length; i++) {
      codecs[i] = json.codecFor(types.get(i), classLoader, allowed);
    }
  }

  @Override
  public String subtype() {
    return SUBTYPE;
  }

  @Override
  public int serializedSize(Object[] arguments) {
    return -1;
  }

  @Override
  public void write(Object[] arguments, OutputStream out) throws IOException {
    if (codecs.length == 1) {
      codecs[0].write(arguments[0], out);
      return;
    }
    out.write('[');
    for (int i = 0; i < codecs.length; i++) {
      if (i > 0) {
        out.write(',');
      }
      codecs[i].write(arguments[i], out);
    }
    out.write(']');
  }

  /**
   * @throws MalformedMessageException if the body is not JSON of the arguments: the value of the one
   *     parameter, or an array of as many values as there are parameters
   */
  @Override
  public Object[] read(InputStream in) throws IOException {
    byte[] body = in.readAllBytes();
    if (codecs.length == 1) {
      return new Object[] {readValue(0, body)};
    }
    JsonNode tree;
    try {
      tree = body.length == 0 ? null : TREE.readTree(body);
    } catch (IOException e) {
      throw new MalformedMessageException("Malformed JSON for the arguments of " + where + ": " + e.getMessage(), e);
    }
    if (codecs.length == 0 && (tree == null || tree.isEmpty())) {
      return NO_ARGUMENTS;
    }
    if (tree == null || !tree.isArray() || tree.size() != codecs.length) {
      throw new MalformedMessageException(where + " takes " + codecs.length
          + " arguments: send them as a JSON array of " + codecs.length + " values", null);
    }
    Object[] arguments = new Object[codecs.length];
    for (int i = 0; i < codecs.length; i++) {
      arguments[i] = readValue(i, TREE.writeValueAsBytes(tree.get(i)));
    }
    return arguments;
  }

  @Override
  public List<Type> parameterTypes() {
    List<Type> types = new java.util.ArrayList<>(codecs.length);
    for (ObjectCodec codec : codecs) {
      types.add(codec.type());
    }
    return types;
  }

  @Override
  public Object readParameter(int index, byte[] json) throws IOException {
    return readValue(index, json);
  }

  private Object readValue(int index, byte[] json) throws IOException {
    try {
      return codecs[index].read(new ByteArrayInputStream(json));
    } catch (MalformedMessageException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new MalformedMessageException("Malformed JSON for argument " + (index + 1) + " of " + where + " ("
          + codecs[index].type().getTypeName() + "): " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "JsonArguments{" + where + '}';
  }
}
