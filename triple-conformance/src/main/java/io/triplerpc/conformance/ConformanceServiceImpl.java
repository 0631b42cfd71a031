package io.triplerpc.conformance;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import connectrpc.conformance.v1.Service.BidiStreamRequest;
import connectrpc.conformance.v1.Service.BidiStreamResponse;
import connectrpc.conformance.v1.Service.ClientStreamRequest;
import connectrpc.conformance.v1.Service.ClientStreamResponse;
import connectrpc.conformance.v1.Service.ConformancePayload;
import connectrpc.conformance.v1.Service.ConformancePayload.RequestInfo;
import connectrpc.conformance.v1.Service.Error;
import connectrpc.conformance.v1.Service.Header;
import connectrpc.conformance.v1.Service.IdempotentUnaryRequest;
import connectrpc.conformance.v1.Service.IdempotentUnaryResponse;
import connectrpc.conformance.v1.Service.ServerStreamRequest;
import connectrpc.conformance.v1.Service.ServerStreamResponse;
import connectrpc.conformance.v1.Service.StreamResponseDefinition;
import connectrpc.conformance.v1.Service.UnaryRequest;
import connectrpc.conformance.v1.Service.UnaryResponse;
import connectrpc.conformance.v1.Service.UnaryResponseDefinition;
import connectrpc.conformance.v1.Service.UnimplementedRequest;
import connectrpc.conformance.v1.Service.UnimplementedResponse;
import io.triplerpc.Metadata;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The conformance service as the suite's {@code service.proto} describes it: each request says which
 * headers, messages, trailers, delays and error to answer with, and every answer echoes what the
 * server saw (request headers, timeout, request messages).
 */
public final class ConformanceServiceImpl implements ConformanceService {

  @Override
  public UnaryResponse unary(UnaryRequest request) {
    ConformancePayload payload = respond(request.getResponseDefinition(), request.hasResponseDefinition(),
        List.of(Any.pack(request)));
    return UnaryResponse.newBuilder().setPayload(payload).build();
  }

  @Override
  public IdempotentUnaryResponse idempotentUnary(IdempotentUnaryRequest request) {
    ConformancePayload payload = respond(request.getResponseDefinition(), request.hasResponseDefinition(),
        List.of(Any.pack(request)));
    return IdempotentUnaryResponse.newBuilder().setPayload(payload).build();
  }

  @Override
  public UnimplementedResponse unimplemented(UnimplementedRequest request) {
    throw Status.UNIMPLEMENTED
        .withDescription("connectrpc.conformance.v1.ConformanceService/Unimplemented is not implemented")
        .asException();
  }

  @Override
  public StreamObserver<ClientStreamRequest> clientStream(StreamObserver<ClientStreamResponse> response) {
    ServerContext context = ServerContext.current();
    return new StreamObserver<>() {
      private final List<Any> requests = new ArrayList<>();
      private UnaryResponseDefinition definition;
      private boolean defined;

      @Override
      public void onNext(ClientStreamRequest request) {
        if (requests.isEmpty()) {
          definition = request.getResponseDefinition();
          defined = request.hasResponseDefinition();
        }
        requests.add(Any.pack(request));
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        try {
          ConformancePayload payload = respond(context, definition, defined, requests);
          response.onNext(ClientStreamResponse.newBuilder().setPayload(payload).build());
          response.onCompleted();
        } catch (StatusException e) {
          response.onError(e);
        }
      }
    };
  }

  @Override
  public void serverStream(ServerStreamRequest request, StreamObserver<ServerStreamResponse> responses) {
    ServerContext context = ServerContext.current();
    StreamResponseDefinition definition = request.getResponseDefinition();
    List<Any> requests = List.of(Any.pack(request));
    addHeaders(context, definition.getResponseHeadersList(), definition.getResponseTrailersList());
    int sent = 0;
    for (ByteString data : definition.getResponseDataList()) {
      ConformancePayload.Builder payload = ConformancePayload.newBuilder().setData(data);
      if (sent == 0) {
        payload.setRequestInfo(requestInfo(context, requests));
      }
      delay(definition.getResponseDelayMs());
      responses.onNext(ServerStreamResponse.newBuilder().setPayload(payload).build());
      sent++;
    }
    if (definition.hasError()) {
      responses.onError(error(definition.getError(), sent == 0 ? requestInfo(context, requests) : null));
    } else {
      responses.onCompleted();
    }
  }

  @Override
  public StreamObserver<BidiStreamRequest> bidiStream(StreamObserver<BidiStreamResponse> responses) {
    ServerContext context = ServerContext.current();
    return new StreamObserver<>() {
      private final List<Any> requests = new ArrayList<>();
      private StreamResponseDefinition definition;
      private boolean fullDuplex;
      private boolean first = true;
      private int sent;
      private boolean done;

      @Override
      public void onNext(BidiStreamRequest request) {
        if (done) {
          return;
        }
        requests.add(Any.pack(request));
        if (first) {
          first = false;
          definition = request.getResponseDefinition();
          fullDuplex = request.getFullDuplex();
          addHeaders(context, definition.getResponseHeadersList(), definition.getResponseTrailersList());
        }
        if (!fullDuplex) {
          return;
        }
        if (sent >= definition.getResponseDataCount()) {
          finish();
          return;
        }
        RequestInfo info = sent == 0
            ? requestInfo(context, requests)
            : RequestInfo.newBuilder().addAllRequests(requests).build();
        delay(definition.getResponseDelayMs());
        responses.onNext(BidiStreamResponse.newBuilder().setPayload(ConformancePayload.newBuilder()
            .setData(definition.getResponseData(sent)).setRequestInfo(info)).build());
        sent++;
        requests.clear();
      }

      @Override
      public void onError(Throwable t) {
        done = true;
      }

      @Override
      public void onCompleted() {
        if (done) {
          return;
        }
        if (definition == null) {
          definition = StreamResponseDefinition.getDefaultInstance();
        }
        for (; sent < definition.getResponseDataCount(); sent++) {
          ConformancePayload.Builder payload = ConformancePayload.newBuilder().setData(definition.getResponseData(sent));
          if (sent == 0) {
            payload.setRequestInfo(requestInfo(context, requests));
          }
          delay(definition.getResponseDelayMs());
          responses.onNext(BidiStreamResponse.newBuilder().setPayload(payload).build());
        }
        finish();
      }

      private void finish() {
        done = true;
        if (definition.hasError()) {
          responses.onError(error(definition.getError(), sent == 0 ? requestInfo(context, requests) : null));
        } else {
          responses.onCompleted();
        }
      }
    };
  }

  private static ConformancePayload respond(UnaryResponseDefinition definition, boolean defined, List<Any> requests) {
    return respond(ServerContext.current(), definition, defined, requests);
  }

  /** A unary answer: the payload to send, or the error the definition asks for as a StatusException. */
  private static ConformancePayload respond(
      ServerContext context, UnaryResponseDefinition definition, boolean defined, List<Any> requests) {
    RequestInfo info = requestInfo(context, requests);
    if (!defined) {
      return ConformancePayload.newBuilder().setRequestInfo(info).build();
    }
    addHeaders(context, definition.getResponseHeadersList(), definition.getResponseTrailersList());
    delay(definition.getResponseDelayMs());
    if (definition.hasError()) {
      throw error(definition.getError(), info);
    }
    return ConformancePayload.newBuilder().setRequestInfo(info).setData(definition.getResponseData()).build();
  }

  private static RequestInfo requestInfo(ServerContext context, List<Any> requests) {
    RequestInfo.Builder info = RequestInfo.newBuilder().addAllRequests(requests);
    Map<String, Header.Builder> headers = new LinkedHashMap<>();
    context.requestHeaders().forEach((key, value) -> headers
        .computeIfAbsent(key, k -> Header.newBuilder().setName(k))
        .addValue(value instanceof byte[] ? Base64.getEncoder().encodeToString((byte[]) value) : (String) value));
    headers.values().forEach(info::addRequestHeaders);
    long remaining = context.remainingNanos();
    if (remaining != Long.MAX_VALUE) {
      info.setTimeoutMs(TimeUnit.NANOSECONDS.toMillis(remaining));
    }
    return info.build();
  }

  private static StatusException error(Error error, RequestInfo info) {
    List<Any> details = new ArrayList<>(error.getDetailsList());
    if (info != null) {
      details.add(Any.pack(info));
    }
    Status status = Status.fromCodeValue(error.getCodeValue())
        .withDescription(error.hasMessage() ? error.getMessage() : null)
        .withDetails(details);
    return status.asException();
  }

  private static void addHeaders(ServerContext context, List<Header> headers, List<Header> trailers) {
    addAll(context.responseHeaders(), headers);
    addAll(context.responseTrailers(), trailers);
  }

  private static void addAll(Metadata metadata, List<Header> headers) {
    for (Header header : headers) {
      String name = header.getName().toLowerCase(Locale.ROOT);
      for (String value : header.getValueList()) {
        if (Metadata.isBinaryKey(name)) {
          metadata.put(name, Base64.getDecoder().decode(value));
        } else {
          metadata.put(name, value);
        }
      }
    }
  }

  private static void delay(int millis) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription("Interrupted while delaying the response").asException();
    }
  }
}
