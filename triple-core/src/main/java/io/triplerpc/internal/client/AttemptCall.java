package io.triplerpc.internal.client;

import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.Status;

/**
 * One attempt of a call, as {@link RetriableCall} drives it: a {@link ClientCall} on one server that
 * also tells how many bytes each request took, and whether the server never processed it.
 */
abstract class AttemptCall<Q, R> extends ClientCall<Q, R> {

  /** Sends {@code message} as {@link #sendMessage} does; returns the bytes it takes on the wire. */
  abstract long send(Q message);

  @Override
  public final void sendMessage(Q message) {
    send(message);
  }

  /** The events of an attempt: a call's, and one more. */
  abstract static class Listener<R> extends ClientCall.Listener<R> {

    /**
     * The attempt ended and its server never processed it (see
     * {@link io.triplerpc.internal.stream.ClientStreamListener#onUnprocessed}): the last event, in
     * place of {@link #onClose}.
     */
    void onUnprocessed(Status status) {
      onClose(status, new Metadata());
    }
  }
}
