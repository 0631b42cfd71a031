package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A project with triple-core and triple-transport-netty only, as the README's two dependencies make it: no
 * fastjson2 on the class path (the surefire run {@code without-fastjson2} leaves it and
 * {@code triple-serialization-fastjson2} off). A service or proxy that names fastjson2 fails where it is
 * declared, naming the artifact to add; a peer's request in fastjson2 ends with UNIMPLEMENTED naming it, and
 * the server carries on.
 */
class WithoutFastjson2Test {

  private static final String ARTIFACT = "io.triplerpc:triple-serialization-fastjson2";

  private static TripleServer server;
  private static TripleClient client;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Accounts.Hessian.class, new AccountsImpl())
        .addService(Accounts.Jackson.class, new AccountsImpl())
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void fastjson2IsNotOnTheClassPath() {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("com.alibaba.fastjson2.JSON"));
    assertTrue(!System.getProperty("java.class.path").contains("fastjson2"), System.getProperty("java.class.path"));
  }

  @Test
  void aServerOfAFastjson2ServiceFailsToBuildNamingTheArtifact() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> TripleServer.builder().port(0)
        .addService(Accounts.Fastjson2.class, new AccountsImpl())
        .build());
    assertTrue(e.getMessage().startsWith(Accounts.Fastjson2.class.getName() + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(ARTIFACT) && e.getMessage().contains("add that dependency"), e.getMessage());
  }

  @Test
  void aProxyOfAFastjson2InterfaceFailsNamingTheArtifact() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> client.proxy(Accounts.Fastjson2.class));
    assertTrue(e.getMessage().contains(ARTIFACT), e.getMessage());
  }

  @Test
  void aRequestInFastjson2IsUnimplementedNamingTheArtifactAndTheServerCarriesOn() throws Exception {
    byte[] request = TripleRequestWrapper.newBuilder().setSerializeType("fastjson2")
        .addArgs(ByteString.copyFrom("not read".getBytes(StandardCharsets.UTF_8)))
        .addArgTypes(String.class.getName()).build().toByteArray();

    Status status = call("triple.test.Accounts", "nothing", request).get(10, TimeUnit.SECONDS);

    assertEquals(Status.Code.UNIMPLEMENTED, status.code(), status.toString());
    assertTrue(status.description().contains("'fastjson2'") && status.description().contains(ARTIFACT),
        status.description());
    assertEquals("was here", client.proxy(Accounts.Hessian.class).nothing("here"));
    assertEquals("was here", client.proxy(Accounts.Jackson.class).nothing("here"));
  }

  /** Sends {@code request} as the one message of a unary call; completes with its status. */
  private static CompletableFuture<Status> call(String service, String method, byte[] request) {
    CompletableFuture<Status> closed = new CompletableFuture<>();
    MethodDescriptor<byte[], byte[]> raw =
        MethodDescriptor.of(service, method, MethodType.UNARY, RawBytes.INSTANCE, RawBytes.INSTANCE, false);
    ClientCall<byte[], byte[]> call = client.newCall(raw, CallOptions.DEFAULT);
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, new Metadata());
    call.request(1);
    call.sendMessage(request);
    call.halfClose();
    return closed;
  }

  /** Message bytes as they are, in the wrappers' content type. */
  private enum RawBytes implements MessageCodec<byte[]> {
    INSTANCE;

    @Override
    public String subtype() {
      return "proto";
    }

    @Override
    public int serializedSize(byte[] value) {
      return -1;
    }

    @Override
    public void write(byte[] value, OutputStream out) throws IOException {
      out.write(value);
    }

    @Override
    public byte[] read(InputStream in) throws IOException {
      return in.readAllBytes();
    }
  }
}
