package io.triplerpc.interop;

import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link ClusterFaultScheduleTest}'s providers serve: one idempotent method, which the client may run again
 * on another instance, and one that must run at most once. Both answer with the name of the provider
 * that ran them.
 */
@TripleService(name = "triple.cluster.Ledger")
public interface Ledger {

  /** Reads; safe to run twice. */
  @TripleMethod(idempotent = true)
  CompletableFuture<String> read(String callId);

  /** Appends {@code callId}; running it twice would append twice. */
  CompletableFuture<String> append(String callId);
}
