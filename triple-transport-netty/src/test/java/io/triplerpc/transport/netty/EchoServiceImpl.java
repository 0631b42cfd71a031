package io.triplerpc.transport.netty;

import com.google.protobuf.ByteString;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The echo service of the transport tests; records what it saw for the tests to check. */
public class EchoServiceImpl implements EchoService {

  /** Counts down when a call the server was waiting in saw its cancellation. */
  public final CountDownLatch cancellationSeen = new CountDownLatch(1);
  /** Counts down when a call is waiting in the server. */
  public final CountDownLatch waiting = new CountDownLatch(1);

  @Override
  public EchoResponse echo(EchoRequest request) {
    if (request.getDelayMillis() > 0) {
      waitOrSeeCancellation(request.getDelayMillis());
    }
    if (request.getFailCode() != 0) {
      throw Status.fromCodeValue(request.getFailCode()).withDescription(request.getMessage()).asException();
    }
    String echoHeader = ServerContext.current().requestHeaders().get("x-echo");
    if (echoHeader != null) {
      ServerContext.current().responseHeaders().put("x-echo", echoHeader);
      ServerContext.current().responseTrailers().put("x-echo-trailer", echoHeader);
    }
    return response(request, 0, echoHeader != null ? echoHeader : Thread.currentThread().getName());
  }

  private void waitOrSeeCancellation(long millis) {
    waiting.countDown();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    CountDownLatch never = new CountDownLatch(1);
    while (System.nanoTime() < deadline) {
      if (ServerContext.current().isCancelled()) {
        cancellationSeen.countDown();
        throw Status.CANCELLED.withDescription("saw cancellation").asException();
      }
      try {
        never.await(5, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Status.CANCELLED.asException();
      }
    }
  }

  @Override
  public CompletableFuture<EchoResponse> echoAsync(EchoRequest request) {
    if (request.getDelayMillis() > 0) {
      // Waits on the service thread, where the call's context is, then answers.
      return CompletableFuture.completedFuture(echo(request));
    }
    if (request.getFailCode() != 0) {
      return CompletableFuture.failedFuture(
          Status.fromCodeValue(request.getFailCode()).withDescription(request.getMessage()).asException());
    }
    return CompletableFuture.supplyAsync(() -> response(request, 0, "async"));
  }

  @Override
  public void serverStream(EchoRequest request, StreamObserver<EchoResponse> responses) {
    ServerCallStreamObserver<EchoResponse> observer = (ServerCallStreamObserver<EchoResponse>) responses;
    observer.setOnCancelHandler(cancellationSeen::countDown);
    for (int i = 0; i < request.getCount(); i++) {
      if (observer.isCancelled()) {
        cancellationSeen.countDown();
        return;
      }
      if (request.getDelayMillis() > 0) {
        waitOrSeeCancellation(request.getDelayMillis());
      }
      observer.onNext(response(request, i, ""));
    }
    if (request.getFailCode() != 0) {
      observer.onError(Status.fromCodeValue(request.getFailCode()).withDescription(request.getMessage()).asException());
      return;
    }
    observer.onCompleted();
  }

  @Override
  public StreamObserver<EchoRequest> clientStream(StreamObserver<EchoResponse> response) {
    return new StreamObserver<>() {
      private final StringBuilder joined = new StringBuilder();
      private int count;

      @Override
      public void onNext(EchoRequest value) {
        joined.append(value.getMessage());
        count++;
      }

      @Override
      public void onError(Throwable t) {
        cancellationSeen.countDown();
      }

      @Override
      public void onCompleted() {
        response.onNext(EchoResponse.newBuilder().setMessage(joined.toString()).setIndex(count).build());
        response.onCompleted();
      }
    };
  }

  @Override
  public StreamObserver<EchoRequest> bidi(StreamObserver<EchoResponse> responses) {
    return new StreamObserver<>() {
      private int index;

      @Override
      public void onNext(EchoRequest value) {
        if (value.getFailCode() != 0) {
          responses.onError(Status.fromCodeValue(value.getFailCode()).withDescription(value.getMessage()).asException());
          return;
        }
        responses.onNext(response(value, index++, ""));
      }

      @Override
      public void onError(Throwable t) {
        cancellationSeen.countDown();
      }

      @Override
      public void onCompleted() {
        responses.onCompleted();
      }
    };
  }

  static EchoResponse response(EchoRequest request, int index, String detail) {
    EchoResponse.Builder builder = EchoResponse.newBuilder()
        .setMessage(request.getMessage())
        .setIndex(index)
        .setDetail(detail);
    if (request.getResponseSize() > 0) {
      byte[] payload = new byte[request.getResponseSize()];
      for (int i = 0; i < payload.length; i++) {
        payload[i] = (byte) (i * 31 + index);
      }
      builder.setPayload(ByteString.copyFrom(payload));
    }
    return builder.build();
  }
}
