package io.triplerpc.transport.netty.pojo;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.io.Serializable;
import java.math.BigDecimal;

/**
 * A plain Java service with client and bidirectional streaming, under one service name in each
 * serialization: a server exports one of them, and callers of the others reach it too.
 */
public interface Tally {

  @TripleService(name = "triple.test.Tally")
  interface Hessian extends Tally {}

  @TripleService(name = "triple.test.Tally", serialization = "fastjson2")
  interface Fastjson2 extends Tally {}

  @TripleService(name = "triple.test.Tally", serialization = "jackson")
  interface Jackson extends Tally {}

  record Entry(String name, BigDecimal amount) implements Serializable {}

  /** Answers, once the entries end, with their sum, named after how many there were. */
  @TripleMethod(clientStreaming = true)
  StreamObserver<Entry> sum(StreamObserver<Entry> total);

  /** Answers each entry with the running total so far. */
  StreamObserver<Entry> running(StreamObserver<Entry> totals);

  /** Serves {@link Tally} in every serialization. */
  final class Impl implements Hessian, Fastjson2, Jackson {
    @Override
    public StreamObserver<Entry> sum(StreamObserver<Entry> total) {
      return new Adding(total, false);
    }

    @Override
    public StreamObserver<Entry> running(StreamObserver<Entry> totals) {
      return new Adding(totals, true);
    }

    private static final class Adding implements StreamObserver<Entry> {
      private final StreamObserver<Entry> out;
      private final boolean eachTime;
      private BigDecimal sum = BigDecimal.ZERO;
      private int count;

      Adding(StreamObserver<Entry> out, boolean eachTime) {
        this.out = out;
        this.eachTime = eachTime;
      }

      @Override
      public void onNext(Entry entry) {
        sum = sum.add(entry.amount());
        count++;
        if (eachTime) {
          out.onNext(new Entry(entry.name(), sum));
        }
      }

      @Override
      public void onError(Throwable t) {
        out.onError(t);
      }

      @Override
      public void onCompleted() {
        if (!eachTime) {
          out.onNext(new Entry(count + " entries", sum));
        }
        out.onCompleted();
      }
    }
  }
}
