package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.PeerInfo;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code http3FromAltSvc()}: the first call goes over HTTP/2 and its response advertises HTTP/3
 * ({@code alt-svc: h3=":port"; ma=86400}, the server's default); the next calls go over HTTP/3, as the
 * server's {@code PeerInfo} says. Without the option, a client stays on HTTP/2.
 */
class Http3FromAltSvcTest {

  @Test
  void aClientThatFollowsAltSvcMovesToHttp3AfterTheFirstResponse() throws InterruptedException {
    Http3ClientTest.CallsImpl calls = new Http3ClientTest.CallsImpl();
    TripleServer server = Http3ClientTest.http3Server().addService(Http3ClientTest.Calls.class, calls).build().start();
    try (TripleClient following = TripleClient.builder().address("localhost", server.port())
            .tls(Http3ClientTest.clientTls()).http3FromAltSvc().build();
        TripleClient notFollowing = TripleClient.builder().address("localhost", server.port())
            .tls(Http3ClientTest.clientTls()).build()) {
      Http3ClientTest.Calls proxy = following.proxy(Http3ClientTest.Calls.class);
      for (String word : List.of("one", "two", "three")) {
        assertEquals("echo " + word, proxy.unary(StringValue.of(word)).getValue());
      }
      assertEquals(List.of(PeerInfo.HTTP_2, PeerInfo.HTTP_3, PeerInfo.HTTP_3), calls.protocols);
      calls.protocols.clear();
      notFollowing.proxy(Http3ClientTest.Calls.class).unary(StringValue.of("a"));
      notFollowing.proxy(Http3ClientTest.Calls.class).unary(StringValue.of("b"));
      assertEquals(List.of(PeerInfo.HTTP_2, PeerInfo.HTTP_2), calls.protocols);
    } finally {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server terminated");
    }
  }
}
