package io.triplerpc.registry;

import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/** {@link Whoami}'s {@code who}, called without waiting. */
@TripleService(name = "triple.test.Whoami")
public interface WhoamiAsync {

  CompletableFuture<String> who(String caller);
}
