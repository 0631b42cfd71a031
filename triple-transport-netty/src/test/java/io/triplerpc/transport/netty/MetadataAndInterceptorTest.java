package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientCallFactory;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.ForwardingClientCallListener;
import io.triplerpc.ForwardingServerCall;
import io.triplerpc.ForwardingServerCallListener;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MetadataAndInterceptorTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  private static final byte[] BINARY = {0, 1, 2, 3, (byte) 0xfe, (byte) 0xff, '\n', ','};

  @Test
  void asciiAndBinaryMetadataTravelBothWays() {
    List<String> serverEvents = new CopyOnWriteArrayList<>();
    CompletableFuture<Metadata> seenByServer = new CompletableFuture<>();
    ServerInterceptor echoHeaders = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        seenByServer.complete(headers);
        serverEvents.add("headers");
        ServerCall<Q, R> wrapped = new ForwardingServerCall<>(call) {
          @Override
          public void sendHeaders(Metadata responseHeaders) {
            serverEvents.add("sendHeaders");
            responseHeaders.put("x-initial-bin", headers.getBinary("x-data-bin"));
            super.sendHeaders(responseHeaders);
          }

          @Override
          public void sendMessage(R message) {
            serverEvents.add("sendMessage");
            super.sendMessage(message);
          }

          @Override
          public void close(Status status, Metadata trailers) {
            serverEvents.add("close:" + status.code());
            trailers.put("x-trailing", headers.get("x-token"));
            super.close(status, trailers);
          }
        };
        return new ForwardingServerCallListener<>(next.startCall(wrapped, headers)) {
          @Override
          public void onMessage(Q message) {
            serverEvents.add("onMessage");
            super.onMessage(message);
          }

          @Override
          public void onHalfClose() {
            serverEvents.add("onHalfClose");
            super.onHalfClose();
          }

          @Override
          public void onComplete() {
            serverEvents.add("onComplete");
            super.onComplete();
          }
        };
      }
    };
    fixture.startServer(b -> b.intercept(echoHeaders));

    List<String> clientEvents = new CopyOnWriteArrayList<>();
    Metadata[] responseHeaders = new Metadata[1];
    Metadata[] responseTrailers = new Metadata[1];
    ClientInterceptor addAndCapture = new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            clientEvents.add("start " + method.fullMethodName());
            headers.put("x-token", "secret-42");
            headers.put("X-Mixed-Case", "lowered");
            headers.put("x-data-bin", BINARY);
            super.start(new ForwardingClientCallListener<>(listener) {
              @Override
              public void onHeaders(Metadata headers) {
                clientEvents.add("onHeaders");
                responseHeaders[0] = headers;
                super.onHeaders(headers);
              }

              @Override
              public void onMessage(R message) {
                clientEvents.add("onMessage");
                super.onMessage(message);
              }

              @Override
              public void onClose(Status status, Metadata trailers) {
                clientEvents.add("onClose:" + status.code());
                responseTrailers[0] = trailers;
                super.onClose(status, trailers);
              }
            }, headers);
          }

          @Override
          public void sendMessage(Q message) {
            clientEvents.add("sendMessage");
            super.sendMessage(message);
          }
        };
      }
    };
    fixture.newClient(b -> b.intercept(addAndCapture));

    fixture.echo().echo(EchoRequest.newBuilder().setMessage("m").build());

    Metadata received = seenByServer.join();
    assertEquals("secret-42", received.get("x-token"));
    assertEquals("lowered", received.get("x-mixed-case"));
    assertArrayEquals(BINARY, received.getBinary("x-data-bin"));
    assertArrayEquals(BINARY, responseHeaders[0].getBinary("x-initial-bin"));
    assertEquals("secret-42", responseTrailers[0].get("x-trailing"));
    assertEquals(List.of("start triple.test.EchoService/echo", "sendMessage", "onHeaders", "onMessage", "onClose:OK"),
        clientEvents);
    assertEquals(List.of("headers", "onMessage", "onHalfClose", "sendHeaders", "sendMessage", "close:OK"),
        List.copyOf(serverEvents).subList(0, 6));
  }

  @Test
  void contextHeadersAndTrailersOfAServiceReachTheClient() throws Exception {
    RecordingListener<EchoResponse> listener = new RecordingListener<>();
    MethodDescriptor<EchoRequest, EchoResponse> echo = unaryEcho();
    ClientCall<EchoRequest, EchoResponse> call = fixture.client().newCall(echo, CallOptions.DEFAULT);
    call.start(listener, new Metadata().put("x-echo", "mirror"));
    call.request(1);
    call.sendMessage(EchoRequest.getDefaultInstance());
    call.halfClose();
    assertEquals(Status.Code.OK, listener.awaitClose().code());
    assertEquals("mirror", listener.headers.get(1, TimeUnit.SECONDS).get("x-echo"));
    assertEquals("mirror", listener.trailers.get("x-echo-trailer"));
    assertEquals(List.of("headers", "message", "close:OK"), listener.events);
  }

  @Test
  void interceptorsRunInTheOrderGiven() {
    List<String> order = new CopyOnWriteArrayList<>();
    ClientInterceptor first = named("first", order);
    ClientInterceptor second = named("second", order);
    ClientInterceptor perProxy = named("per-proxy", order);
    fixture.newClient(b -> b.intercept(first, second));
    fixture.client().proxy(EchoService.class, CallOptions.DEFAULT.withInterceptors(perProxy))
        .echo(EchoRequest.getDefaultInstance());
    assertEquals(List.of("first", "second", "per-proxy"), order);
  }

  @Test
  void blockingUnaryResponseIsDecodedOnTheCallingThread() throws Exception {
    Thread[] onMessageThread = new Thread[1];
    ClientInterceptor recordThread = new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            super.start(new ForwardingClientCallListener<>(listener) {
              @Override
              public void onMessage(R message) {
                // Decoding runs in the same task, just before this callback.
                onMessageThread[0] = Thread.currentThread();
                super.onMessage(message);
              }
            }, headers);
          }
        };
      }
    };
    fixture.newClient(b -> b.intercept(recordThread));
    fixture.echo().echo(EchoRequest.getDefaultInstance());
    assertSame(Thread.currentThread(), onMessageThread[0]);

    fixture.echo().echoAsync(EchoRequest.getDefaultInstance()).get(10, TimeUnit.SECONDS);
    assertNotSame(Thread.currentThread(), onMessageThread[0]);
  }

  private static ClientInterceptor named(String name, List<String> order) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, ClientCallFactory next) {
        order.add(name);
        return next.newCall(method, options);
      }
    };
  }

  static MethodDescriptor<EchoRequest, EchoResponse> unaryEcho() {
    return MethodDescriptor.of("triple.test.EchoService", "echo", io.triplerpc.MethodType.UNARY,
        io.triplerpc.serialization.Serializations.codecFor(EchoRequest.class),
        io.triplerpc.serialization.Serializations.codecFor(EchoResponse.class), false);
  }
}
