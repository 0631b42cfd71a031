package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import io.triplerpc.CallOptions;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleService;
import io.triplerpc.serialization.Serializations;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StatusTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  @ParameterizedTest
  @EnumSource(value = Status.Code.class, mode = EnumSource.Mode.EXCLUDE, names = "OK")
  void everyStatusCodeAndItsMessageReachTheClient(Status.Code code) {
    String message = "failed: " + code + " \t 100% ünïcødé ✓ \n done";
    StatusException e = assertThrows(StatusException.class, () -> fixture.echo().echo(
        EchoRequest.newBuilder().setFailCode(code.value()).setMessage(message).build()));
    assertEquals(code, e.status().code());
    assertEquals(message, e.status().description());
  }

  @Test
  void asyncFailureReachesTheFuture() {
    ExecutionException e = assertThrows(ExecutionException.class, () -> fixture.echo().echoAsync(
        EchoRequest.newBuilder().setFailCode(Status.Code.ALREADY_EXISTS.value()).setMessage("dup").build())
        .get(10, TimeUnit.SECONDS));
    StatusException status = (StatusException) e.getCause();
    assertEquals(Status.Code.ALREADY_EXISTS, status.status().code());
    assertEquals("dup", status.status().description());
  }

  @Test
  void streamFailureAfterResponsesReachesTheObserverAfterThem() throws Exception {
    RecordingObserver<EchoResponse> responses = new RecordingObserver<>();
    fixture.echo().serverStream(EchoRequest.newBuilder().setCount(3).setFailCode(Status.Code.ABORTED.value())
        .setMessage("stop").build(), responses);
    responses.awaitCompletion();
    assertEquals(3, responses.values().size());
    assertEquals(Status.Code.ABORTED, ((StatusException) responses.error()).status().code());
  }

  @Test
  void serviceThatThrowsGivesUnknownWithItsMessage() {
    fixture.startServer(b -> b.addService(Thrower.class, request -> {
      throw new IllegalStateException("database on fire");
    }));
    StatusException e = assertThrows(StatusException.class,
        () -> fixture.client().proxy(Thrower.class).call(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNKNOWN, e.status().code());
    assertTrue(e.status().description().contains("database on fire"), e.status().description());
    // The connection goes on serving.
    assertEquals(Status.Code.UNKNOWN, assertThrows(StatusException.class,
        () -> fixture.client().proxy(Thrower.class).call(EchoRequest.getDefaultInstance())).status().code());
  }

  @Test
  void detailsOfAStatusReachTheClientAsGrpcStatusDetailsBin() {
    Any retry = Any.pack(EchoRequest.newBuilder().setMessage("retry in 5 s").build());
    Any quota = Any.pack(EchoResponse.newBuilder().setMessage("quota: 10/min").build());
    fixture.startServer(b -> b.addService(Thrower.class, request -> {
      throw Status.RESOURCE_EXHAUSTED.withDescription("slow down").withDetails(List.of(retry, quota)).asException();
    }));
    StatusException e = assertThrows(StatusException.class,
        () -> fixture.client().proxy(Thrower.class).call(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
    assertEquals("slow down", e.status().description());
    assertEquals(List.of(retry, quota), e.status().details());
  }

  @Test
  void trailersOfAStatusExceptionReachTheClient() {
    fixture.startServer(b -> b.addService(Thrower.class, request -> {
      Metadata trailers = new Metadata().put("x-reason", "quota").put("x-detail-bin", new byte[] {0, 1, 2, (byte) 255});
      throw Status.RESOURCE_EXHAUSTED.withDescription("slow down").asException(trailers);
    }));
    StatusException e = assertThrows(StatusException.class,
        () -> fixture.client().proxy(Thrower.class).call(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
    assertEquals("quota", e.trailers().get("x-reason"));
    assertEquals(4, e.trailers().getBinary("x-detail-bin").length);
    assertEquals((byte) 255, e.trailers().getBinary("x-detail-bin")[3]);
  }

  @Test
  void unknownMethodIsUnimplemented() {
    StatusException e = assertThrows(StatusException.class,
        () -> fixture.client().proxy(Missing.class).nothingHere(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
    assertEquals("Method not found: triple.test.EchoService/nothingHere", e.status().description());
  }

  @Test
  void unknownServiceIsUnimplemented() {
    MethodDescriptor<EchoRequest, EchoResponse> method = MethodDescriptor.of("no.such.Service", "Call",
        MethodType.UNARY, Serializations.codecFor(EchoRequest.class), Serializations.codecFor(EchoResponse.class), false);
    RecordingListener<EchoResponse> listener = new RecordingListener<>();
    io.triplerpc.ClientCall<EchoRequest, EchoResponse> call = fixture.client().newCall(method, CallOptions.DEFAULT);
    call.start(listener, new Metadata());
    call.request(1);
    call.sendMessage(EchoRequest.getDefaultInstance());
    call.halfClose();
    Status status = listener.awaitClose();
    assertEquals(Status.Code.UNIMPLEMENTED, status.code());
    assertEquals("Method not found: no.such.Service/Call", status.description());
  }

  @Test
  void nullFromAServiceIsAnInternalError() {
    fixture.startServer(b -> b.addService(Thrower.class, request -> null));
    StatusException e = assertThrows(StatusException.class,
        () -> fixture.client().proxy(Thrower.class).call(EchoRequest.getDefaultInstance()));
    assertEquals(Status.Code.INTERNAL, e.status().code());
  }

  @Test
  void responseOverTheClientLimitIsResourceExhausted() {
    fixture.newClient(b -> b.maxInboundMessageSize(1000));
    StatusException e = assertThrows(StatusException.class,
        () -> fixture.echo().echo(EchoRequest.newBuilder().setResponseSize(5000).build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
    // The connection goes on serving.
    assertEquals("ok", fixture.echo().echo(EchoRequest.newBuilder().setMessage("ok").build()).getMessage());
  }

  @Test
  void requestOverTheServerLimitIsResourceExhausted() {
    fixture.startServer(b -> b.maxInboundMessageSize(1000));
    StatusException e = assertThrows(StatusException.class, () -> fixture.echo().echo(EchoRequest.newBuilder()
        .setPayload(com.google.protobuf.ByteString.copyFrom(new byte[5000])).build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.status().code());
    assertEquals("ok", fixture.echo().echo(EchoRequest.newBuilder().setMessage("ok").build()).getMessage());
  }

  @TripleService(name = "triple.test.Thrower")
  public interface Thrower {
    EchoResponse call(EchoRequest request);
  }

  @TripleService(name = "triple.test.EchoService")
  public interface Missing {
    EchoResponse nothingHere(EchoRequest request);
  }

}
