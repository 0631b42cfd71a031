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
    EchoService echo = echo(protocol, gzip);
    assertEquals("hi", echo.echo(EchoRequest.newBuilder().setMessage("hi").build()).getMessage());
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    echo.serverStream(EchoRequest.newBuilder().setMessage("x").setCount(3).build(), responses);
    responses.awaitCompletion();
    assertEquals(3, responses.values().size());
  }

  @ParameterizedTest
  @CsvSource({"GRPC_WEB, false", "GRPC_WEB, true", "CONNECT, false", "CONNECT, true"})
  void clientStreamingAndBidiCallsAnswer(ClientProtocol protocol, boolean gzip) throws Exception {
    EchoService echo = echo(protocol, gzip);
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
