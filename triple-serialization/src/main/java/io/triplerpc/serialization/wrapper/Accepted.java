package io.triplerpc.serialization.wrapper;

import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.object.SerializationNotInstalledException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The serializations a wrapper codec reads, in a fixed order (the one it writes by default first), and the
 * lookup of a wrapper's {@code serializeType} among them: a scan of a few names, with nothing allocated.
 *
 * <p>Immutable and thread-safe.
 */
final class Accepted {

  private final ObjectSerialization[] serializations;
  /** What the codec reads, for error messages: "hessian2 ('hessian4'), jackson ('jackson')". */
  private final String description;

  private Accepted(List<ObjectSerialization> serializations) {
    this.serializations = serializations.toArray(new ObjectSerialization[0]);
    List<String> names = new ArrayList<>();
    for (ObjectSerialization serialization : serializations) {
      names.add(serialization.name() + " ('" + serialization.wireName() + "')");
    }
    this.description = String.join(", ", names);
  }

  /**
   * {@code writes} first, then every other installed object serialization: a method reads whatever a
   * caller (or, on the client, the server answering in the caller's serialization) may send.
   */
  static Accepted writing(ObjectSerialization writes) {
    List<ObjectSerialization> all = new ArrayList<>();
    all.add(writes);
    for (ObjectSerialization installed : ObjectSerializations.installed()) {
      if (!installed.name().equals(writes.name())) {
        all.add(installed);
      }
    }
    return new Accepted(all);
  }

  int size() {
    return serializations.length;
  }

  ObjectSerialization get(int index) {
    return serializations[index];
  }

  List<ObjectSerialization> asList() {
    return List.of(serializations);
  }

  /** The index of the serialization that reads {@code serializeType}, or -1 if none does. */
  int indexOfWireName(String serializeType) {
    for (int i = 0; i < serializations.length; i++) {
      if (serializations[i].readsWireName(serializeType)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The index of {@code serialization}, the same instance or one of the same name.
   *
   * @throws IllegalArgumentException if it is not among these
   */
  int indexOf(ObjectSerialization serialization) {
    for (int i = 0; i < serializations.length; i++) {
      if (serializations[i] == serialization) {
        return i;
      }
    }
    for (int i = 0; i < serializations.length; i++) {
      if (serializations[i].name().equals(serialization.name())) {
        return i;
      }
    }
    throw new IllegalArgumentException("Not a serialization of this method: " + serialization.name()
        + "; it has " + description);
  }

  /**
   * A refusal of {@code serializeType}, naming {@code where} and what it reads; a
   * {@link SerializationNotInstalledException} naming the artifact to add if that serialization is one Triple
   * knows but is not installed (fastjson2 without its artifact).
   */
  IOException unknown(String where, String what, String serializeType) {
    String refusal = where + " reads " + what + " in " + description + ", but the " + what
        + "'s serializeType is '" + serializeType + "'";
    String artifact = ObjectSerializations.missingArtifact(serializeType);
    if (artifact != null) {
      return new SerializationNotInstalledException(
          refusal + ", which needs " + artifact + " on the class path", artifact);
    }
    return new IOException(refusal);
  }

  @Override
  public String toString() {
    return description;
  }
}
