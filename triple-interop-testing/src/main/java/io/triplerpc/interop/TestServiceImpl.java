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
import io.grpc.testing.integration.TestService;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
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
    ResponseStream stream = new ResponseStream(responses);
    if (request.getResponseStatus().getCode() != 0) {
      stream.failAfterQueued(request.getResponseStatus());
    }
    stream.enqueue(request.getResponseParametersList());
    stream.completeInput();
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
    ResponseStream stream = new ResponseStream(responses);
    return new StreamObserver<>() {
      @Override
      public void onNext(StreamingOutputCallRequest request) {
        if (request.getResponseStatus().getCode() != 0) {
          stream.failNow(request.getResponseStatus());
        } else {
          stream.enqueue(request.getResponseParametersList());
        }
      }

      @Override
      public void onError(Throwable t) {
        stream.abandon();
      }

      @Override
      public void onCompleted() {
        stream.completeInput();
      }
    };
  }

  @Override
  public StreamObserver<StreamingOutputCallRequest> halfDuplexCall(
      StreamObserver<StreamingOutputCallResponse> responses) {
    ResponseStream stream = new ResponseStream(responses);
    List<ResponseParameters> all = new ArrayList<>();
    return new StreamObserver<>() {
      @Override
      public void onNext(StreamingOutputCallRequest request) {
        all.addAll(request.getResponseParametersList());
      }

      @Override
      public void onError(Throwable t) {
        stream.abandon();
      }

      @Override
      public void onCompleted() {
        stream.enqueue(all);
        stream.completeInput();
      }
    };
  }

  /** Answers UNIMPLEMENTED, as every interop server must (the unimplemented_method case). */
  @Override
  public Empty unimplementedCall(Empty request) {
    throw Status.UNIMPLEMENTED.withDescription("grpc.testing.TestService/UnimplementedCall is not implemented")
        .asException();
  }

  /**
   * One call's response stream. Sends one response per queued parameter, in order, each after its
   * {@code interval_us} (on a timer, so no service thread sleeps), compressed if that parameter asks;
   * ends the stream once the input is complete and nothing is left to send.
   *
   * <p>Every call into the observer happens under this object's lock: the timer thread and the
   * request thread both send, and an observer must not be called by two threads at once.
   */
  private static final class ResponseStream {
    private final ServerCallStreamObserver<StreamingOutputCallResponse> observer;
    private final Queue<ResponseParameters> pending = new ArrayDeque<>();
    /** True while the head of {@link #pending} waits on the timer; at most one send is scheduled. */
    private boolean scheduled;
    private boolean inputComplete;
    /** The status to end with instead of OK; null for OK. */
    private EchoStatus finalStatus;
    /** True once the stream was completed, failed or abandoned; nothing is sent after that. */
    private boolean ended;

    ResponseStream(StreamObserver<StreamingOutputCallResponse> responses) {
      this.observer = (ServerCallStreamObserver<StreamingOutputCallResponse>) responses;
      // Negotiates gzip for the stream; each message then says whether it is compressed.
      observer.setCompression("gzip");
    }

    synchronized void enqueue(List<ResponseParameters> parameters) {
      pending.addAll(parameters);
      sendWhatIsDue();
    }

    synchronized void completeInput() {
      inputComplete = true;
      sendWhatIsDue();
    }

    /** Ends with {@code status} once the queued responses are sent. */
    synchronized void failAfterQueued(EchoStatus status) {
      finalStatus = status;
    }

    /** Ends with {@code status} now; queued responses are dropped. */
    synchronized void failNow(EchoStatus status) {
      if (!ended) {
        ended = true;
        pending.clear();
        observer.onError(statusOf(status));
      }
    }

    /** The client is gone (cancelled or failed): nothing more is sent. */
    synchronized void abandon() {
      ended = true;
      pending.clear();
    }

    private void sendWhatIsDue() {
      while (!scheduled && !ended) {
        ResponseParameters next = pending.peek();
        if (next == null) {
          if (inputComplete) {
            ended = true;
            if (finalStatus != null) {
              observer.onError(statusOf(finalStatus));
            } else {
              observer.onCompleted();
            }
          }
          return;
        }
        if (next.getIntervalUs() > 0) {
          scheduled = true;
          TIMER.schedule(this::sendScheduled, next.getIntervalUs(), TimeUnit.MICROSECONDS);
          return;
        }
        send(pending.remove());
      }
    }

    private synchronized void sendScheduled() {
      scheduled = false;
      if (!ended) {
        send(pending.remove());
        sendWhatIsDue();
      }
    }

    private void send(ResponseParameters parameter) {
      if (observer.isCancelled()) {
        abandon();
        return;
      }
      observer.setMessageCompression(parameter.hasCompressed() && parameter.getCompressed().getValue());
      observer.onNext(StreamingOutputCallResponse.newBuilder().setPayload(payload(parameter.getSize())).build());
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
      throw statusOf(status);
    }
  }

  private static StatusException statusOf(EchoStatus status) {
    return Status.fromCodeValue(status.getCode()).withDescription(status.getMessage()).asException();
  }

  static Payload payload(int size) {
    return Payload.newBuilder().setType(PayloadType.COMPRESSABLE).setBody(ByteString.copyFrom(new byte[size])).build();
  }
}
