package io.triplerpc.serialization.hessian;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One thread's hessian object streams, reset and reused for every value the thread writes or reads
 * instead of being built per call (each holds an 8 KiB or 1 KiB buffer and reference tables).
 *
 * <p>Confined to its thread. A stream is lent out by {@code acquire*} and must be given back with
 * {@code release}; a nested use on the same thread while the stream is lent (a serializer that itself
 * serializes) gets a fresh stream rather than corrupting the lent one.
 */
final class HessianStreams {

  private static final ThreadLocal<HessianStreams> CURRENT = ThreadLocal.withInitial(HessianStreams::new);

  /** This thread's output; lent out while {@link #outputLent}. */
  private final Hessian2Output output = new Hessian2Output();
  /** This thread's input; lent out while {@link #inputLent}. */
  private final Hessian2Input input = new Hessian2Input(null);
  private boolean outputLent;
  private boolean inputLent;
  /** How many times {@link #output} was lent; grows by one per write, never with a new stream. */
  private long outputReuses;
  /** How many times {@link #input} was lent. */
  private long inputReuses;

  private HessianStreams() {}

  /** The calling thread's streams. */
  static HessianStreams current() {
    return CURRENT.get();
  }

  /** Lends a stream that writes to {@code target} with {@code factory}, with no state from earlier values. */
  Hessian2Output acquireOutput(SerializerFactory factory, OutputStream target) {
    Hessian2Output lent;
    if (outputLent) {
      lent = new Hessian2Output();
    } else {
      outputLent = true;
      outputReuses++;
      lent = output;
    }
    // init resets the reference and class tables and the buffer position.
    lent.init(target);
    lent.setSerializerFactory(factory);
    return lent;
  }

  /** Takes back a stream from {@link #acquireOutput}; drops its reference to the target and the values. */
  void release(Hessian2Output lent) {
    lent.free();
    if (lent == output) {
      outputLent = false;
    }
  }

  /** Lends a stream that reads from {@code source} with {@code factory}, with no state from earlier values. */
  Hessian2Input acquireInput(SerializerFactory factory, InputStream source) {
    Hessian2Input lent;
    if (inputLent) {
      lent = new Hessian2Input(null);
    } else {
      inputLent = true;
      inputReuses++;
      lent = input;
    }
    discardBuffered(lent);
    lent.init(source);
    lent.setSerializerFactory(factory);
    return lent;
  }

  /** Takes back a stream from {@link #acquireInput}; drops its references to the source and the values. */
  void release(Hessian2Input lent) {
    discardBuffered(lent);
    lent.init(null);
    if (lent == input) {
      inputLent = false;
    }
  }

  /** This thread's output stream, the one {@link #acquireOutput} lends when it is free. */
  Hessian2Output output() {
    return output;
  }

  /** This thread's input stream, the one {@link #acquireInput} lends when it is free. */
  Hessian2Input input() {
    return input;
  }

  long outputReuses() {
    return outputReuses;
  }

  long inputReuses() {
    return inputReuses;
  }

  private static void discardBuffered(Hessian2Input in) {
    // init() resets references but not the read-ahead window; a value that failed midway leaves bytes in it.
    try {
      in.resetBuffer();
    } catch (IllegalStateException leftover) {
      // resetBuffer empties the window before it complains that bytes were left unread.
    }
  }
}
