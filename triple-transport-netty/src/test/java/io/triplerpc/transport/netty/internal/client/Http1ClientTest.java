package io.triplerpc.transport.netty.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Triple's HTTP/1.1 client against a scripted HTTP/1.1 server on loopback: what goes on the wire (the
 * request line, its length, a GET's query), keep-alive reuse, and every way an exchange can go wrong
 * (a malformed or oversized response, a server that closes mid-response, a deadline, a cancel).
 */
class Http1ClientTest {

  @TripleService(name = "triple.test.Lookup")
  interface Lookup {
    @TripleMethod(idempotent = true)
    EchoResponse find(EchoRequest request);

    EchoResponse post(EchoRequest request);

    void watch(EchoRequest request, io.triplerpc.StreamObserver<EchoResponse> responses);
  }

  private Http1Peer peer;
  private TripleClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (peer != null) {
      peer.close();
    }
  }

  private Lookup lookup(int expectedCloses, BiConsumer<FullHttpRequest, ChannelHandlerContext> script,
      UnaryOperator<TripleClient.Builder> customize) throws InterruptedException {
    peer = new Http1Peer(expectedCloses, script);
    client = customize.apply(TripleClient.builder().address("127.0.0.1", peer.port())
        .protocol(ClientProtocol.CONNECT).http1(true)).build();
    return client.proxy(Lookup.class);
  }

  /** Answers each Connect unary request with {@code message} in protobuf, keeping the connection. */
  private static BiConsumer<FullHttpRequest, ChannelHandlerContext> answer(String message) {
    return (request, ctx) -> {
      byte[] body = EchoResponse.newBuilder().setMessage(message).build().toByteArray();
      FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
          Unpooled.wrappedBuffer(body));
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/proto").set("trailer-x-t", "v");
      HttpUtil.setContentLength(response, body.length);
      ctx.writeAndFlush(response);
    };
  }

  private static EchoRequest request(String message) {
    return EchoRequest.newBuilder().setMessage(message).build();
  }

  @Test
  void aUnaryCallIsAnHttp11PostWithItsLengthAndKeepsItsConnectionForTheNext() throws Exception {
    Lookup lookup = lookup(0, answer("ok"), b -> b);
    assertEquals("ok", lookup.post(request("one")).getMessage());
    assertEquals("ok", lookup.post(request("two")).getMessage());
    Http1Peer.Request first = peer.requests.take();
    assertEquals("HTTP/1.1", first.protocolVersion());
    assertEquals("POST", first.method());
    assertEquals("/triple.test.Lookup/post", first.uri());
    assertEquals("application/proto", first.headers().get(HttpHeaderNames.CONTENT_TYPE));
    assertEquals(String.valueOf(first.body().length), first.headers().get(HttpHeaderNames.CONTENT_LENGTH));
    assertNull(first.headers().get(HttpHeaderNames.TRANSFER_ENCODING));
    assertEquals("127.0.0.1:" + peer.port(), first.headers().get(HttpHeaderNames.HOST));
    assertEquals(request("one"), EchoRequest.parseFrom(first.body()));
    assertEquals(1, peer.connections.get(), "the second call reuses the kept-alive connection");
  }

  @Test
  void anIdempotentMethodGoesAsGetWithItsMessageInTheQueryOnceGetIsOn() throws Exception {
    Lookup lookup = lookup(0, (request, ctx) -> {
      FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
          Unpooled.copiedBuffer("{\"message\":\"got\"}", StandardCharsets.UTF_8));
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
      HttpUtil.setContentLength(response, response.content().readableBytes());
      ctx.writeAndFlush(response);
    }, b -> b.codec("json").connectGet(true));
    assertEquals("got", lookup.find(request("ü?&=")).getMessage());
    Http1Peer.Request get = peer.requests.take();
    assertEquals("GET", get.method());
    assertEquals(0, get.body().length);
    assertNull(get.headers().get(HttpHeaderNames.CONTENT_TYPE));
    assertNull(get.headers().get("connect-protocol-version"));
    String prefix = "/triple.test.Lookup/find?connect=v1&encoding=json&base64=1&message=";
    assertTrue(get.uri().startsWith(prefix), get.uri());
    String json = new String(Base64.getUrlDecoder().decode(get.uri().substring(prefix.length())), StandardCharsets.UTF_8);
    EchoRequest.Builder sent = EchoRequest.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(json, sent);
    assertEquals(request("ü?&="), sent.build());
  }

  @Test
  void aGetWhoseUrlWouldBeTooLongGoesAsPost() throws Exception {
    Lookup lookup = lookup(0, answer("ok"), b -> b.connectGet(true));
    lookup.find(request("x".repeat(ConnectUnaryClientFraming.MAX_GET_TARGET)));
    assertEquals("POST", peer.requests.take().method());
    lookup.find(request("short"));
    assertEquals("GET", peer.requests.take().method());
  }

  @Test
  void aServerThatClosesMidResponseFailsTheCallWithUnavailable() throws Exception {
    Lookup lookup = lookup(1, (request, ctx) -> {
      DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/proto");
      HttpUtil.setContentLength(head, 100);
      ctx.write(head);
      ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[10])))
          .addListener(ChannelFutureListener.CLOSE);
    }, b -> b);
    StatusException e = assertThrows(StatusException.class, () -> lookup.post(request("x")));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code(), e.toString());
  }

  @Test
  void aMalformedResponseFailsTheCallWithInternalAndClosesTheConnection() throws Exception {
    Lookup lookup = lookup(1, (request, ctx) -> ctx.pipeline().firstContext().writeAndFlush(
        Unpooled.copiedBuffer("HTTP/1.1 abc nonsense\r\ncontent-length: x\r\n\r\n", StandardCharsets.US_ASCII)),
        b -> b);
    StatusException e = assertThrows(StatusException.class, () -> lookup.post(request("x")));
    assertEquals(Status.Code.INTERNAL, e.status().code(), e.toString());
    assertTrue(peer.closed.await(10, TimeUnit.SECONDS));
  }

  @Test
  void anOversizedResponseFailsWithResourceExhausted() throws Exception {
    Lookup lookup = lookup(0, answer("y".repeat(1000)), b -> b.maxInboundMessageSize(100));
    StatusException e = assertThrows(StatusException.class, () -> lookup.post(request("x")));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code(), e.toString());
  }

  @Test
  void aCallPastItsDeadlineClosesItsConnectionAndTheNextCallOpensAnother() throws Exception {
    Lookup lookup = lookup(1, (request, ctx) -> {
      if (peer.connections.get() == 1) {
        return; // never answers the first call
      }
      answer("late").accept(request, ctx);
    }, b -> b);
    Lookup hurried = client.proxy(Lookup.class, CallOptions.DEFAULT.withTimeout(Duration.ofMillis(200)));
    StatusException e = assertThrows(StatusException.class, () -> hurried.post(request("x")));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.status().code(), e.toString());
    assertTrue(peer.closed.await(10, TimeUnit.SECONDS), "the deadline closes the connection");
    assertTrue(peer.requests.take().headers().contains("connect-timeout-ms"));
    assertEquals("late", lookup.post(request("y")).getMessage());
    assertEquals(2, peer.connections.get());
  }

  @Test
  void aCancelledStreamClosesItsConnection() throws Exception {
    Lookup lookup = lookup(1, (request, ctx) -> {
      DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/connect+proto");
      HttpUtil.setTransferEncodingChunked(head, true);
      ctx.write(head);
      byte[] message = EchoResponse.newBuilder().setMessage("first").build().toByteArray();
      ByteBuf envelope = Unpooled.buffer().writeByte(0).writeInt(message.length).writeBytes(message);
      ctx.writeAndFlush(new DefaultHttpContent(envelope)); // and never ends
    }, b -> b);
    java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CountDownLatch first = new java.util.concurrent.CountDownLatch(1);
    io.triplerpc.ClientResponseObserver<EchoRequest, EchoResponse> observer = new io.triplerpc.ClientResponseObserver<>() {
      private io.triplerpc.ClientCallStreamObserver<EchoRequest> call;

      @Override
      public void beforeStart(io.triplerpc.ClientCallStreamObserver<EchoRequest> requestStream) {
        call = requestStream;
      }

      @Override
      public void onNext(EchoResponse value) {
        call.cancel("enough", null);
        first.countDown();
      }

      @Override
      public void onError(Throwable t) {
        ended.complete(t);
      }

      @Override
      public void onCompleted() {
        ended.complete(null);
      }
    };
    lookup.watch(request("x"), observer);
    assertTrue(first.await(10, TimeUnit.SECONDS));
    assertTrue(peer.closed.await(10, TimeUnit.SECONDS), "the cancel closes the connection");
    assertEquals(Status.Code.CANCELLED, Status.fromThrowable(ended.get(10, TimeUnit.SECONDS)).code());
    assertFalse(peer.requests.isEmpty());
  }
}
