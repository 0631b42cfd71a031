package io.triplerpc.registry;

import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** A plain Java service whose answer names the instance that served it. */
@TripleService(name = "triple.test.Whoami")
public interface Whoami {

  /** The serving instance's name; not idempotent, so never retried. */
  String who(String caller);

  /** The same, marked idempotent, so a consumer may retry it on another instance. */
  @TripleMethod(idempotent = true)
  String whoIdempotent(String caller);

  /** An implementation that answers {@code name}. */
  static Whoami named(String name) {
    return new Whoami() {
      @Override
      public String who(String caller) {
        return name;
      }

      @Override
      public String whoIdempotent(String caller) {
        return name;
      }
    };
  }
}
