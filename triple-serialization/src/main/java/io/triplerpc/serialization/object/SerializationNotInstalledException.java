package io.triplerpc.serialization.object;

import java.io.IOException;

/**
 * A message names a serialization that Triple knows but that is not installed here, because its artifact is
 * not on the class path (a peer sends fastjson2, and {@value ObjectSerializations#FASTJSON2_ARTIFACT} is
 * missing): the sender did nothing wrong, this side cannot read it. A server answers such a request with
 * {@code UNIMPLEMENTED}, naming the artifact.
 */
public class SerializationNotInstalledException extends IOException {

  private static final long serialVersionUID = 1L;

  /** The Maven coordinates of the artifact that would read the message. */
  private final String artifact;

  public SerializationNotInstalledException(String message, String artifact) {
    super(message);
    this.artifact = artifact;
  }

  /** The Maven coordinates ({@code groupId:artifactId}) of the artifact that would read the message. */
  public String artifact() {
    return artifact;
  }
}
