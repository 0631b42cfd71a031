package io.triplerpc.transport.netty.exports;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleService;

/** A service whose implementations say which export they are, served under several versions and groups. */
@TripleService(name = "triple.test.Counter")
public interface Counter {

  /** The implementation's name and {@code label}. */
  String who(String label);

  /** {@code count} messages, each the implementation's name and its index. */
  void count(int count, StreamObserver<String> responses);

  /** The same service, whose annotation names an export: proxies call it without being told. */
  @TripleService(name = "triple.test.Counter", version = "1.0.0", group = "g1")
  interface V1G1 extends Counter {}

  /** Answers with its name. */
  record Named(String name) implements Counter, V1G1 {
    @Override
    public String who(String label) {
      return name + ":" + label;
    }

    @Override
    public void count(int count, StreamObserver<String> responses) {
      for (int i = 0; i < count; i++) {
        responses.onNext(name + "#" + i);
      }
      responses.onCompleted();
    }
  }
}
