package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Triple's client speaking gRPC-Web and Connect ({@link ClientProtocol}) to Triple's server: every call
 * shape, compressed or not, and a failure whose status, details and trailers come back whole (in the
 * body's trailer frame, the end-of-stream message, or a unary error's JSON and headers).
 */
class ClientProtocolsTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  private EchoService echo(ClientProtocol protocol, boolean gzip) {
    TripleClient client = fixture.newClient(builder -> builder.protocol(protocol));
    return client.proxy(EchoService.class, gzip ? CallOptions.DEFAULT.withCompression("gzip") : CallOptions.DEFAULT);
  }

  @ParameterizedTest
  @CsvSource({"GRPC_WEB, false", "GRPC_WEB, true", "CONNECT, false", "CONNECT, true"})
  void unaryAndServerStreamingCallsAnswer(ClientProtocol protocol, boolean gzip) throws Exception {
    unaryAndServerStreamingCallsAnswer(echo(protocol, gzip));
  }

  private static void unaryAndServerStreamingCallsAnswer(EchoService echo) throws Exception {
    assertEquals("hi", echo.echo(EchoRequest.newBuilder().setMessage("hi").build()).getMessage());
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    echo.serverStream(EchoRequest.newBuilder().setMessage("x").setCount(3).build(), responses);
    responses.awaitCompletion();
    assertEquals(3, responses.values().size());
  }

  @ParameterizedTest
  @CsvSource({"GRPC_WEB, false", "GRPC_WEB, true", "CONNECT, false", "CONNECT, true"})
  void clientStreamingAndBidiCallsAnswer(ClientProtocol protocol, boolean gzip) throws Exception {
    clientStreamingAndBidiCallsAnswer(echo(protocol, gzip));
  }

  private static void clientStreamingAndBidiCallsAnswer(EchoService echo) throws Exception {
    RecordingObserver<EchoResponse> one = new RecordingObserver<>();
    StreamObserver<EchoRequest> requests = echo.clientStream(one);
    requests.onNext(EchoRequest.newBuilder().setMessage("a").build());
    requests.onNext(EchoRequest.newBuilder().setMessage("b").build());
    requests.onCompleted();
    one.awaitCompletion();
    assertEquals(1, one.values().size());
    RecordingObserver<EchoResponse> many = new RecordingObserver<>();
    StreamObserver<EchoRequest> bidi = echo.bidi(many);
    bidi.onNext(EchoRequest.newBuilder().setMessage("c").build());
    bidi.onNext(EchoRequest.newBuilder().setMessage("d").build());
    bidi.onCompleted();
    many.awaitCompletion();
    assertEquals(2, many.values().size());
  }

  /** Every call shape over HTTP/1.1 and HTTP/2, in protobuf and JSON, GET on for the Connect protocol. */
  @ParameterizedTest
  @CsvSource({"GRPC_WEB, proto, true", "GRPC_WEB, json, true", "GRPC_WEB, json, false", "CONNECT, proto, true",
      "CONNECT, json, true", "CONNECT, json, false", "GRPC, json, false"})
  void everyCallShapeAnswersInEitherCodecOverEitherHttpVersion(ClientProtocol protocol, String codec, boolean http1)
      throws Exception {
    TripleClient client = fixture.newClient(b -> b.protocol(protocol).codec(codec).http1(http1).connectGet(true));
    for (CallOptions options : List.of(CallOptions.DEFAULT, CallOptions.DEFAULT.withCompression("gzip"))) {
      EchoService echo = client.proxy(EchoService.class, options);
      assertEquals("ho", echo.echoAsync(EchoRequest.newBuilder().setMessage("ho").build()).get().getMessage());
      unaryAndServerStreamingCallsAnswer(echo);
      clientStreamingAndBidiCallsAnswer(echo);
    }
  }

  @ParameterizedTest
  @CsvSource({"proto, false", "json, false", "proto, true", "json, true"})
  void anIdempotentMethodAnswersAsGetAndAsPostWhenItsUrlIsTooLong(String codec, boolean http1) throws Exception {
    fixture.startServer(b -> b.addService(Lookup.class, request -> EchoResponse.newBuilder()
        .setMessage(request.getMessage().length() + "").build()));
    TripleClient client = fixture.newClient(b -> b.protocol(ClientProtocol.CONNECT).codec(codec).http1(http1)
        .connectGet(true));
    Lookup lookup = client.proxy(Lookup.class);
    assertEquals("5", lookup.find(EchoRequest.newBuilder().setMessage("short").build()).getMessage());
    String longMessage = "x".repeat(10_000);
    assertEquals("10000", lookup.find(EchoRequest.newBuilder().setMessage(longMessage).build()).getMessage());
  }

  @org.junit.jupiter.api.Test
  void grpcOverHttp1IsRefusedWhenTheClientIsBuilt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TripleClient.builder().address("127.0.0.1", 1).http1(true).build());
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("HTTP/2"), e.getMessage());
  }

  /** A method without side effects, which the Connect protocol may call with GET. */
  @io.triplerpc.TripleService(name = "triple.test.Lookup")
  public interface Lookup {
    @io.triplerpc.TripleMethod(idempotent = true)
    EchoResponse find(EchoRequest request);
  }

  @ParameterizedTest
  @EnumSource(value = ClientProtocol.class, names = {"GRPC_WEB", "CONNECT"})
  void aFailureComesWithItsStatusDetailsAndTrailers(ClientProtocol protocol) {
    Any detail = Any.pack(EchoRequest.newBuilder().setMessage("why").build());
    fixture.startServer(b -> b.addService(StatusTest.Thrower.class, request -> {
      throw Status.NOT_FOUND.withDescription("no such user: ünï").withDetails(List.of(detail))
          .asException(new io.triplerpc.Metadata().put("x-reason", "gone"));
    }));
    TripleClient client = fixture.newClient(builder -> builder.protocol(protocol));
    StatusException e = assertThrows(StatusException.class,
        () -> client.proxy(StatusTest.Thrower.class).call(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.NOT_FOUND, e.status().code());
    assertEquals("no such user: ünï", e.status().description());
    assertEquals(List.of(detail), e.status().details());
    assertEquals("gone", e.trailers().get("x-reason"));
  }
}
