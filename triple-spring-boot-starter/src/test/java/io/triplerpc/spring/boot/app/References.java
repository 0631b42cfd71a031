package io.triplerpc.spring.boot.app;

import io.triplerpc.spring.boot.TripleReference;
import java.util.Map;
import org.springframework.core.annotation.MergedAnnotation;

/** {@link TripleReference}s made in code, as the annotation on an injection point would be. */
public final class References {

  private References() {}

  /** {@code @TripleReference(address = address)}. */
  public static TripleReference to(String address) {
    return MergedAnnotation.of(TripleReference.class, Map.of("address", address)).synthesize();
  }
}
