package io.triplerpc.micrometer;

import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.micrometer.testing.Ping;
import io.triplerpc.micrometer.testing.Pong;

/** Answers each ping with its text, or fails with its {@code fail_code}. */
final class PingServiceImpl implements PingService {

  @Override
  public Pong ping(Ping request) {
    if (request.getFailCode() != 0) {
      throw Status.fromCodeValue(request.getFailCode()).withDescription("failed on purpose").asException();
    }
    return Pong.newBuilder().setText(request.getText()).build();
  }

  @Override
  public void pings(Ping request, StreamObserver<Pong> replies) {
    for (int i = 0; i < request.getCount(); i++) {
      replies.onNext(Pong.newBuilder().setText(request.getText() + " #" + i).build());
    }
    replies.onCompleted();
  }

  @Override
  public StreamObserver<Ping> collect(StreamObserver<Pong> reply) {
    StringBuilder texts = new StringBuilder();
    return new StreamObserver<>() {
      @Override
      public void onNext(Ping value) {
        texts.append(value.getText());
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        reply.onNext(Pong.newBuilder().setText(texts.toString()).build());
        reply.onCompleted();
      }
    };
  }

  @Override
  public StreamObserver<Ping> chat(StreamObserver<Pong> replies) {
    return new StreamObserver<>() {
      @Override
      public void onNext(Ping value) {
        replies.onNext(Pong.newBuilder().setText(value.getText()).build());
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        replies.onCompleted();
      }
    };
  }
}
