package io.triplerpc.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Empty;
import com.google.protobuf.StringValue;
import com.google.protobuf.Timestamp;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.codegen.everything.EchoReply;
import io.triplerpc.codegen.everything.EchoRequest;
import io.triplerpc.codegen.everything.Everything;
import io.triplerpc.codegen.everything.Pinger;
import io.triplerpc.codegen.numbers.NumbersProto.Number;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import triple.codegen.nested.Nested;
import triple.codegen.nested.NestedOuterClass.Outer;

/**
 * Interfaces protoc-gen-triple wrote in this build, served by a real server and called through a real
 * client's proxy, in every shape; once with a service that implements the blocking form of each unary
 * RPC, once with one that implements the asynchronous form.
 */
class RoundTripTest {

  private static final CallOptions TIMEOUT = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10));

  private TripleServer server;
  private TripleClient client;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private Everything start(boolean async) {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Everything.class, async ? new AsyncEverything() : new BlockingEverything())
        .addService(Pinger.class, new Pinger() {
          @Override
          public Empty ping(Empty request) {
            return request;
          }
        })
        .addService(Nested.class, new Nested() {
          @Override
          public CompletableFuture<Outer> flipAsync(Outer.Inner request) {
            return CompletableFuture.completedFuture(Outer.newBuilder().setInner(request).build());
          }
        })
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    return client.proxy(Everything.class, TIMEOUT);
  }

  @ParameterizedTest(name = "async service: {0}")
  @ValueSource(booleans = {false, true})
  void unaryCallsCarryOptionalOneofMapNestedAndWellKnownFields(boolean async) throws Exception {
    Everything everything = start(async);
    EchoRequest request = EchoRequest.newBuilder()
        .setText("hi")
        .setCount(0)
        .setNested(EchoRequest.Nested.newBuilder().setNote("n")
            .setDeeper(EchoRequest.Nested.Deeper.newBuilder().setFlag(true)))
        .putTally("a", 1).putTally("b", 2)
        .addTags("x")
        .setKind(EchoRequest.Kind.KIND_LOUD)
        .setSent(Timestamp.newBuilder().setSeconds(42))
        .build();
    EchoReply reply = everything.echo(request);
    assertEquals(request, reply.getEchoed());
    assertTrue(reply.getHadCount(), "proto3 optional: an explicit 0 is present");
    assertEquals("NESTED", reply.getChoiceCase());

    EchoReply later = everything.echoAsync(EchoRequest.newBuilder().setNumber(7).build()).get(10, TimeUnit.SECONDS);
    assertFalse(later.getHadCount());
    assertEquals("NUMBER", later.getChoiceCase());

    assertEquals(Empty.getDefaultInstance(), everything.ping(Empty.getDefaultInstance()));
    assertEquals(Empty.getDefaultInstance(), everything.pingAsync(Empty.getDefaultInstance()).get(10, TimeUnit.SECONDS));
    assertEquals(1234, everything.now(Empty.getDefaultInstance()).getSeconds());
    @SuppressWarnings("deprecation")
    StringValue old = everything.oldEcho(StringValue.of("old"));
    assertEquals("old", old.getValue());

    assertEquals(Empty.getDefaultInstance(), client.proxy(Pinger.class, TIMEOUT).ping(Empty.getDefaultInstance()));
    Nested nested = client.proxy(Nested.class, TIMEOUT);
    assertEquals("v", nested.flip(Outer.Inner.newBuilder().setValue("v").build()).getInner().getValue());
    assertEquals("w", nested.flipAsync(Outer.Inner.newBuilder().setValue("w").build())
        .get(10, TimeUnit.SECONDS).getInner().getValue());
  }

  @ParameterizedTest(name = "async service: {0}")
  @ValueSource(booleans = {false, true})
  void unaryFailuresReachBothFormsAsTheServersStatus(boolean async) {
    Everything everything = start(async);
    EchoRequest refused = EchoRequest.newBuilder().setText("refuse").build();
    StatusException blocking = assertThrows(StatusException.class, () -> everything.echo(refused));
    assertEquals(Status.Code.INVALID_ARGUMENT, blocking.status().code());
    assertEquals("refused", blocking.status().description());
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> everything.echoAsync(refused).get(10, TimeUnit.SECONDS));
    StatusException cause = (StatusException) failed.getCause();
    assertEquals(Status.Code.INVALID_ARGUMENT, cause.status().code());
  }

  @ParameterizedTest(name = "async service: {0}")
  @ValueSource(booleans = {false, true})
  void streamingCallsInEveryDirection(boolean async) throws Exception {
    Everything everything = start(async);
    Recorder<EchoReply> counted = new Recorder<>();
    everything.count(EchoRequest.newBuilder().setCount(3).build(), counted);
    assertEquals(List.of(1, 2, 3), counted.done.get(10, TimeUnit.SECONDS).stream().map(EchoReply::getIndex).toList());

    Recorder<Number> sum = new Recorder<>();
    StreamObserver<Number> numbers = everything.sum(sum);
    for (long n = 1; n <= 4; n++) {
      numbers.onNext(Number.newBuilder().setValue(n).build());
    }
    numbers.onCompleted();
    assertEquals(List.of(Number.newBuilder().setValue(10).build()), sum.done.get(10, TimeUnit.SECONDS));

    Recorder<EchoReply> chat = new Recorder<>();
    StreamObserver<EchoRequest> talk = everything.chat(chat);
    talk.onNext(EchoRequest.newBuilder().setText("a").build());
    talk.onNext(EchoRequest.newBuilder().setText("b").build());
    talk.onCompleted();
    assertEquals(List.of("a", "b"),
        chat.done.get(10, TimeUnit.SECONDS).stream().map(reply -> reply.getEchoed().getText()).toList());
  }

  /** Implements the blocking form of each unary RPC. */
  static class BlockingEverything extends StreamingEverything {
    @Override
    public EchoReply echo(EchoRequest request) {
      if (request.getText().equals("refuse")) {
        throw Status.INVALID_ARGUMENT.withDescription("refused").asException();
      }
      return EchoReply.newBuilder().setEchoed(request).setHadCount(request.hasCount())
          .setChoiceCase(request.getChoiceCase().name()).build();
    }

    @Override
    public Empty ping(Empty request) {
      return request;
    }

    @Override
    public Timestamp now(Empty request) {
      return Timestamp.newBuilder().setSeconds(1234).build();
    }

    @Override
    @Deprecated
    public StringValue oldEcho(StringValue request) {
      return request;
    }
  }

  /** Implements the asynchronous form of each unary RPC, answering from another thread. */
  private static class AsyncEverything extends StreamingEverything {
    private final BlockingEverything answers = new BlockingEverything();

    @Override
    public CompletableFuture<EchoReply> echoAsync(EchoRequest request) {
      return CompletableFuture.supplyAsync(() -> answers.echo(request));
    }

    @Override
    public CompletableFuture<Empty> pingAsync(Empty request) {
      return CompletableFuture.supplyAsync(() -> request);
    }

    @Override
    public CompletableFuture<Timestamp> nowAsync(Empty request) {
      return CompletableFuture.supplyAsync(() -> answers.now(request));
    }

    @Override
    @Deprecated
    public CompletableFuture<StringValue> oldEchoAsync(StringValue request) {
      return CompletableFuture.completedFuture(request);
    }
  }

  /** The streaming RPCs, which have one form each. */
  private abstract static class StreamingEverything implements Everything {
    @Override
    public void count(EchoRequest request, StreamObserver<EchoReply> responses) {
      for (int i = 1; i <= request.getCount(); i++) {
        responses.onNext(EchoReply.newBuilder().setIndex(i).build());
      }
      responses.onCompleted();
    }

    @Override
    public StreamObserver<Number> sum(StreamObserver<Number> response) {
      long[] total = {0};
      return new StreamObserver<>() {
        @Override
        public void onNext(Number value) {
          total[0] += value.getValue();
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          response.onNext(Number.newBuilder().setValue(total[0]).build());
          response.onCompleted();
        }
      };
    }

    @Override
    public StreamObserver<EchoRequest> chat(StreamObserver<EchoReply> responses) {
      return new StreamObserver<>() {
        @Override
        public void onNext(EchoRequest value) {
          responses.onNext(EchoReply.newBuilder().setEchoed(value).build());
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          responses.onCompleted();
        }
      };
    }
  }

  /** Collects a stream's values; completes with them, or fails with its error. */
  private static final class Recorder<T> implements StreamObserver<T> {
    final List<T> values = new ArrayList<>();
    final CompletableFuture<List<T>> done = new CompletableFuture<>();

    @Override
    public void onNext(T value) {
      values.add(value);
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(values);
    }
  }
}
