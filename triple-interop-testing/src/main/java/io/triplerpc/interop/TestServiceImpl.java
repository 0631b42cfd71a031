package io.triplerpc.interop;

import com.google.protobuf.ByteString;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.BoolValue;
import io.grpc.testing.integration.Messages.EchoStatus;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.PayloadType;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.Messages.StreamingInputCallRequest;
import io.grpc.testing.integration.Messages.StreamingInputCallResponse;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallResponse;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The interop test service, as gRPC's interop test descriptions specify it: payloads of the sizes
 * asked for, statuses echoed, compression on request, and a check that messages marked
 * {@code expect_compressed} really arrived compressed.
 */
public final class TestServiceImpl implements TestService {

  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "interop-response-timer");
    thread.setDaemon(true);
    return thread;
  });

  @Override
  public Empty emptyCall(Empty request) {
    return Empty.getDefaultInstance();
  }

  @Override
  public SimpleResponse unaryCall(SimpleRequest request) {
    ServerContext context = ServerContext.current();
    checkCompressed(request.hasExpectCompressed() ? request.getExpectCompressed() : null, context);
    if (request.hasResponseCompressed()) {
      context.setResponseCompression("gzip");
      context.setMessageCompression(request.getResponseCompressed().getValue());
    }
    failIfAsked(request.getResponseStatus());
    SimpleResponse.Builder response = SimpleResponse.newBuilder();
    if (request.getResponseSize() > 0) {
      response.setPayload(payload(request.getResponseSize()));
    }
    return response.build();
  }

  @Override
  public SimpleResponse cacheableUnaryCall(SimpleRequest request) {
    return unaryCall(request);
  }

  @Override
  public void streamingOutputCall(
      StreamingOutputCallRequest request, StreamObserver<StreamingOutputCallResponse> responses) {
    ServerCallStreamObserver<StreamingOutputCallResponse> observer =
        (ServerCallStreamObserver<StreamingOutputCallResponse>) responses;
    observer.setCompression("gzip");
    new ResponseSchedule(observer, request.getResponseParametersList(), request.getResponseStatus(), true).next();
  }

  @Override
  public StreamObserver<StreamingInputCallRequest> streamingInputCall(
      StreamObserver<StreamingInputCallResponse> response) {
    return new StreamObserver<>() {
      private int total;
      private boolean failed;

      @Override
      public void onNext(StreamingInputCallRequest value) {
        if (failed) {
          return;
        }
        try {
          checkCompressed(value.hasExpectCompressed() ? value.getExpectCompressed() : null, ServerContext.current());
        } catch (RuntimeException e) {
          failed = true;
          response.onError(e);
          return;
        }
        total += value.getPayload().getBody().size();
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        if (!failed) {
          response.onNext(StreamingInputCallResponse.newBuilder().setAggregatedPayloadSize(total).build());
          response.onCompleted();
        }
      }
    };
  }

  @Override
  public StreamObserver<StreamingOutputCallRequest> fullDuplexCall(
      StreamObserver<StreamingOutputCallResponse> responses) {
    ServerCallStreamObserver<StreamingOutputCallResponse> observer =
        (ServerCallStreamObserver<StreamingOutputCallResponse>) responses;
    observer.setCompression("gzip");
    return new StreamObserver<>() {
      /** Responses of earlier requests still being sent; the stream ends after them. */
      private ResponseSchedule last;
      private boolean closed;

      @Override
      public void onNext(StreamingOutputCallRequest request) {
        if (closed) {
          return;
        }
        if (request.getResponseStatus().getCode() != 0) {
          closed = true;
          failIfAskedTo(observer, request.getResponseStatus());
          return;
        }
        last = new ResponseSchedule(observer, request.getResponseParametersList(), null, false).after(last);
      }

      @Override
      public void onError(Throwable t) {
        closed = true;
      }

      @Override
      public void onCompleted() {
        if (closed) {
          return;
        }
        closed = true;
        if (last == null) {
          observer.onCompleted();
        } else {
          last.completeWhenDone();
        }
      }
    };
  }

  @Override
  public StreamObserver<StreamingOutputCallRequest> halfDuplexCall(
      StreamObserver<StreamingOutputCallResponse> responses) {
    ServerCallStreamObserver<StreamingOutputCallResponse> observer =
        (ServerCallStreamObserver<StreamingOutputCallResponse>) responses;
    List<StreamingOutputCallRequest> requests = new ArrayList<>();
    return new StreamObserver<>() {
      @Override
      public void onNext(StreamingOutputCallRequest value) {
        requests.add(value);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        List<ResponseParameters> all = new ArrayList<>();
        for (StreamingOutputCallRequest request : requests) {
          all.addAll(request.getResponseParametersList());
        }
        new ResponseSchedule(observer, all, null, true).next();
      }
    };
  }

  /**
   * Sends one response per parameter, each after its {@code interval_us}, on a timer so no service
   * thread sleeps; then completes (or fails with the echoed status) if asked to.
   */
  private static final class ResponseSchedule {
    private final ServerCallStreamObserver<StreamingOutputCallResponse> observer;
    private final List<ResponseParameters> parameters;
    private final EchoStatus finalStatus;
    private boolean completeAtEnd;
    private ResponseSchedule previous;
    private ResponseSchedule nextInLine;
    private int index;
    private boolean done;

    ResponseSchedule(
        ServerCallStreamObserver<StreamingOutputCallResponse> observer,
        List<ResponseParameters> parameters,
        EchoStatus finalStatus,
        boolean completeAtEnd) {
      this.observer = observer;
      this.parameters = parameters;
      this.finalStatus = finalStatus;
      this.completeAtEnd = completeAtEnd;
    }

    /** Starts after {@code previous} is done (or now if it is null or done). */
    synchronized ResponseSchedule after(ResponseSchedule previous) {
      if (previous == null || !previous.chain(this)) {
        next();
      }
      return this;
    }

    private synchronized boolean chain(ResponseSchedule successor) {
      if (done) {
        return false;
      }
      nextInLine = successor;
      return true;
    }

    synchronized void completeWhenDone() {
      if (done) {
        finish();
      } else {
        completeAtEnd = true;
      }
    }

    void next() {
      ResponseParameters parameter;
      synchronized (this) {
        if (index == parameters.size()) {
          done = true;
          if (completeAtEnd) {
            finish();
          }
          if (nextInLine != null) {
            nextInLine.next();
          }
          return;
        }
        parameter = parameters.get(index++);
      }
      Runnable send = () -> {
        synchronized (this) {
          if (observer.isCancelled()) {
            return;
          }
          if (parameter.hasCompressed()) {
            observer.setMessageCompression(parameter.getCompressed().getValue());
          }
          observer.onNext(StreamingOutputCallResponse.newBuilder().setPayload(payload(parameter.getSize())).build());
        }
        next();
      };
      if (parameter.getIntervalUs() > 0) {
        TIMER.schedule(send, parameter.getIntervalUs(), TimeUnit.MICROSECONDS);
      } else {
        send.run();
      }
    }

    private void finish() {
      if (finalStatus != null && finalStatus.getCode() != 0) {
        failIfAskedTo(observer, finalStatus);
      } else {
        observer.onCompleted();
      }
    }
  }

  private static void checkCompressed(BoolValue expectCompressed, ServerContext context) {
    if (expectCompressed != null && expectCompressed.getValue() && !context.isRequestCompressed()) {
      throw Status.INVALID_ARGUMENT.withDescription("Expected a compressed request, got an uncompressed one")
          .asException();
    }
  }

  private static void failIfAsked(EchoStatus status) {
    if (status.getCode() != 0) {
      throw Status.fromCodeValue(status.getCode()).withDescription(status.getMessage()).asException();
    }
  }

  private static void failIfAskedTo(StreamObserver<?> observer, EchoStatus status) {
    observer.onError(Status.fromCodeValue(status.getCode()).withDescription(status.getMessage()).asException());
  }

  static Payload payload(int size) {
    return Payload.newBuilder().setType(PayloadType.COMPRESSABLE).setBody(ByteString.copyFrom(new byte[size])).build();
  }
}
