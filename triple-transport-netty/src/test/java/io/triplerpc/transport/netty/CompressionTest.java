package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.triplerpc.CallOptions;
import io.triplerpc.ServerContext;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CompressionTest {

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  @Test
  void gzipRequestsArriveCompressedAndGzipResponsesComeBack() {
    AtomicBoolean requestCompressed = new AtomicBoolean();
    fixture.startServer(b -> b.addService(StatusTest.Thrower.class, request -> {
      requestCompressed.set(ServerContext.current().isRequestCompressed());
      ServerContext.current().setResponseCompression("gzip");
      return EchoResponse.newBuilder().setPayload(request.getPayload()).build();
    }));
    ByteString payload = ByteString.copyFrom(new byte[100_000]);
    EchoResponse response = fixture.client()
        .proxy(StatusTest.Thrower.class, CallOptions.DEFAULT.withCompression("gzip"))
        .call(EchoRequest.newBuilder().setPayload(payload).build());
    assertTrue(requestCompressed.get());
    assertEquals(payload, response.getPayload());
  }

  @Test
  void uncompressedRequestsAreReportedAsSuch() {
    AtomicBoolean requestCompressed = new AtomicBoolean(true);
    fixture.startServer(b -> b.addService(StatusTest.Thrower.class, request -> {
      requestCompressed.set(ServerContext.current().isRequestCompressed());
      return EchoResponse.getDefaultInstance();
    }));
    fixture.client().proxy(StatusTest.Thrower.class).call(EchoRequest.getDefaultInstance());
    assertFalse(requestCompressed.get());
  }
}
