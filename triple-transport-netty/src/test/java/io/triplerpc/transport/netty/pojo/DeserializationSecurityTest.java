package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.fastjson2.JSONWriter;
import com.google.protobuf.ByteString;
import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.ServerCall;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleRequestWrapper;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.RemoteServiceException;
import io.triplerpc.transport.netty.evil.SideEffects;
import io.triplerpc.transport.netty.pojo.Mailbox.Item;
import io.triplerpc.transport.netty.pojo.Mailbox.Parcel;
import io.triplerpc.transport.netty.pojo.Mailbox.TrustedNote;
import io.triplerpc.transport.netty.pojo.Mailbox.Undeliverable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Over a real socket: requests and responses of plain Java services that name a class the service's
 * signatures do not reach are refused with a status naming the class, before any code of that class runs;
 * classes on a server's or client's allow list pass; declared graphs and exceptions still travel.
 */
class DeserializationSecurityTest {

  private static final String GADGET = "io.triplerpc.transport.netty.evil.Gadget";

  private static final MailboxImpl IMPL = new MailboxImpl();
  private static TripleServer server;
  private static TripleClient client;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Mailbox.Hessian.class, IMPL)
        .addService(Mailbox.Fastjson2.class, IMPL)
        .addService(Mailbox.Jackson.class, IMPL)
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    stop(server);
  }

  static Stream<Mailbox> serializations() {
    return Stream.of(client.proxy(Mailbox.Hessian.class), client.proxy(Mailbox.Fastjson2.class),
        client.proxy(Mailbox.Jackson.class));
  }

  @Test
  void aHessianGadgetInARequestIsRefusedBeforeAnyOfItsCodeRuns() throws Exception {
    int before = IMPL.delivered.get();
    byte[] request = requestWrapper("hessian4", parcelHolding(GADGET));

    Status status = call(client, "triple.test.Mailbox", "deliver", request).closed.get(10, TimeUnit.SECONDS);

    assertEquals(Status.Code.INVALID_ARGUMENT, status.code(), status.toString());
    assertTrue(status.description().startsWith("class " + GADGET + " is not allowed to be deserialized for "
        + "service triple.test.Mailbox"), status.description());
    assertTrue(status.description().contains("allowDeserialization(\"" + GADGET + "\")"), status.description());
    assertEquals(List.of(), SideEffects.happened(), "no code of the gadget ran, not even its static initializer");
    assertEquals(before, IMPL.delivered.get(), "the service was not called");
    // The connection and the server carry on.
    assertEquals("bob:-:-:0:0", client.proxy(Mailbox.Hessian.class).deliver(parcel("bob")));
  }

  @Test
  void aJsonTypeIdNamingAGadgetInARequestIsRefused() throws Exception {
    String parcel = "{\"to\":\"bob\",\"item\":{\"@class\":\"" + GADGET + "\",\"command\":\"touch /tmp/pwned\"}}";
    byte[] request = requestWrapper("jackson", parcel.getBytes(StandardCharsets.UTF_8));

    Status status = call(client, "triple.test.MailboxJackson", "deliver", request).closed.get(10, TimeUnit.SECONDS);

    assertEquals(Status.Code.INVALID_ARGUMENT, status.code(), status.toString());
    assertTrue(status.description().startsWith("class " + GADGET + " is not allowed to be deserialized for "
        + "service triple.test.MailboxJackson"), status.description());
    assertEquals(List.of(), SideEffects.happened());
  }

  @Test
  void aFastjson2GadgetInARequestIsRefusedBeforeAnyOfItsCodeRuns() throws Exception {
    int before = IMPL.delivered.get();
    byte[] parcel;
    try (JSONWriter out = JSONWriter.ofJSONB()) {
      // {"@type": Parcel, "to": "bob", "contents": {"@type": GADGET, "command": ...}}, as fastjson2 writes it.
      out.writeTypeName(Parcel.class.getName());
      out.startObject();
      out.writeName("to");
      out.writeString("bob");
      out.writeName("contents");
      out.writeTypeName(GADGET);
      out.startObject();
      out.writeName("command");
      out.writeString("touch /tmp/pwned");
      out.endObject();
      out.endObject();
      parcel = out.getBytes();
    }
    byte[] framed = ByteBuffer.allocate(4 + parcel.length).putInt(parcel.length).put(parcel).array();
    // To the hessian2 service: a server reads every serialization, whichever the request names.
    for (String service : List.of("triple.test.Mailbox", "triple.test.MailboxFastjson2")) {
      Status status = call(client, service, "deliver", requestWrapper("fastjson2", framed))
          .closed.get(10, TimeUnit.SECONDS);

      assertEquals(Status.Code.INVALID_ARGUMENT, status.code(), status.toString());
      assertTrue(status.description().startsWith("class " + GADGET + " is not allowed to be deserialized for "
          + "service " + service), status.description());
      assertTrue(status.description().contains("allowDeserialization(\"" + GADGET + "\")"), status.description());
    }
    assertEquals(List.of(), SideEffects.happened(), "no code of the gadget ran, not even its static initializer");
    assertEquals(before, IMPL.delivered.get(), "the service was not called");
    assertEquals("bob:-:-:0:0", client.proxy(Mailbox.Fastjson2.class).deliver(parcel("bob")));
  }

  @Test
  void aClassOnlyTheServersAllowListNamesIsAcceptedThere() throws Exception {
    Parcel withNote = parcel("bob");
    withNote.contents = new TrustedNote();
    StatusException refused =
        assertThrows(StatusException.class, () -> client.proxy(Mailbox.Hessian.class).deliver(withNote));
    assertEquals(Status.Code.INVALID_ARGUMENT, refused.status().code());
    assertTrue(refused.status().description().startsWith("class " + TrustedNote.class.getName() + " is not allowed"),
        refused.status().description());

    TripleServer allowing = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Mailbox.Hessian.class, IMPL)
        .allowDeserialization(TrustedNote.class.getName()) // after addService: still applies
        .build().start();
    try (TripleClient toAllowing = TripleClient.builder().address("127.0.0.1", allowing.port()).build()) {
      assertEquals("bob:TrustedNote:-:0:0", toAllowing.proxy(Mailbox.Hessian.class).deliver(withNote));
    } finally {
      stop(allowing);
    }
  }

  @Test
  void builtServersAndClientsKeepTheAllowListTheyWereBuiltWith() throws Exception {
    Parcel withNote = parcel("bob");
    withNote.contents = new TrustedNote();
    TripleServer.Builder serverBuilder = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Mailbox.Hessian.class, IMPL);
    TripleServer strict = serverBuilder.build().start();
    serverBuilder.allowDeserialization(TrustedNote.class.getName()); // after build(): not the built server's
    TripleClient.Builder clientBuilder = TripleClient.builder().address("127.0.0.1", strict.port());
    try (TripleClient toStrict = clientBuilder.build()) {
      clientBuilder.allowDeserialization(TrustedNote.class.getName());
      StatusException refused =
          assertThrows(StatusException.class, () -> toStrict.proxy(Mailbox.Hessian.class).deliver(withNote));
      assertEquals(Status.Code.INVALID_ARGUMENT, refused.status().code(), refused.status().toString());
      StatusException unreadHere =
          assertThrows(StatusException.class, () -> toStrict.proxy(Mailbox.Hessian.class).open("note"));
      assertTrue(unreadHere.status().description().startsWith("class " + TrustedNote.class.getName()
          + " is not allowed"), unreadHere.status().description());
    } finally {
      stop(strict);
    }
  }

  @Test
  void aResponseNamingAClassTheClientDoesNotAllowFailsTheCall() throws Exception {
    byte[] response = responseWrapper(parcelHolding(GADGET));
    TripleServer scripted = TripleServer.builder().host("127.0.0.1").port(0)
        .addMethod(raw("triple.test.Mailbox", "open"), (ServerCall<byte[], byte[]> open, Metadata headers) -> {
          open.request(1);
          return new ServerCall.Listener<byte[]>() {
            @Override
            public void onHalfClose() {
              open.sendHeaders(new Metadata());
              open.sendMessage(response);
              open.close(Status.OK, new Metadata());
            }
          };
        })
        .build().start();
    try (TripleClient toScripted = TripleClient.builder().address("127.0.0.1", scripted.port()).build()) {
      StatusException e = assertThrows(StatusException.class,
          () -> toScripted.proxy(Mailbox.Hessian.class).open("anything"));
      assertEquals(Status.Code.INTERNAL, e.status().code(), e.status().toString());
      assertTrue(e.status().description().startsWith("class " + GADGET + " is not allowed to be deserialized for "
          + "service triple.test.Mailbox"), e.status().description());
      assertEquals(List.of(), SideEffects.happened());
    } finally {
      stop(scripted);
    }
  }

  @Test
  void aResponseHoldingAClassOnTheClientsAllowListIsRead() {
    StatusException refused =
        assertThrows(StatusException.class, () -> client.proxy(Mailbox.Hessian.class).open("note"));
    assertEquals(Status.Code.INTERNAL, refused.status().code());
    assertTrue(refused.status().description().startsWith("class " + TrustedNote.class.getName() + " is not allowed"),
        refused.status().description());

    try (TripleClient allowing = TripleClient.builder().address("127.0.0.1", server.port())
        .allowDeserialization("io.triplerpc.transport.netty.pojo.Mailbox$TrustedNote").build()) {
      Parcel opened = allowing.proxy(Mailbox.Hessian.class).open("note");
      assertEquals("hi", assertInstanceOf(TrustedNote.class, opened.contents).text);
    }
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void declaredGraphsGenericsAndExceptionsStillTravel(Mailbox mailbox) throws Exception {
    Parcel parcel = parcel("carol");
    parcel.item = new Item("lamp", "fragile");
    parcel.items = List.of(new Item("a", "x"), new Item("b", "y"));
    parcel.shelves = Map.of("top", List.of(new Item("c", "z")), "low", List.of());
    parcel.contents = "a string is a JDK value type";
    assertEquals("carol:String:fragile:2:1", mailbox.deliver(parcel));

    Parcel opened = mailbox.open("nothing");
    assertEquals("fragile", opened.item.label.text);
    assertEquals(List.of(new Item("a", "x")), opened.shelves.get("top"));

    Undeliverable thrown = assertThrows(Undeliverable.class, () -> mailbox.deliver(parcel(null)));
    assertEquals("no recipient", thrown.reason);
    assertEquals(List.of(), SideEffects.happened());
  }

  private static Parcel parcel(String to) {
    Parcel parcel = new Parcel();
    parcel.to = to;
    return parcel;
  }

  /** A {@link Parcel} whose {@code contents} is an object of {@code className}, written field by field. */
  private static byte[] parcelHolding(String className) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bytes);
    writeObjectStart(out, Parcel.class.getName(), "to", "contents");
    out.writeString("bob");
    writeObjectStart(out, className, "command");
    out.writeString("touch /tmp/pwned");
    out.flushBuffer();
    return bytes.toByteArray();
  }

  private static void writeObjectStart(Hessian2Output out, String className, String... fields) throws IOException {
    if (out.writeObjectBegin(className) == -1) {
      out.writeClassFieldLength(fields.length);
      for (String field : fields) {
        out.writeString(field);
      }
      out.writeObjectBegin(className);
    }
  }

  /** Dubbo's request wrapper around one argument, declared as a {@link Parcel}. */
  private static byte[] requestWrapper(String serializeType, byte[] argument) {
    return TripleRequestWrapper.newBuilder().setSerializeType(serializeType).addArgs(ByteString.copyFrom(argument))
        .addArgTypes(Parcel.class.getName()).build().toByteArray();
  }

  private static byte[] responseWrapper(byte[] data) {
    return TripleResponseWrapper.newBuilder().setSerializeType("hessian4").setData(ByteString.copyFrom(data))
        .setType(Parcel.class.getName()).build().toByteArray();
  }

  /** Sends {@code request} as the one message of a unary call and records the outcome. */
  private static Outcome call(TripleClient client, String service, String method, byte[] request) {
    Outcome outcome = new Outcome();
    ClientCall<byte[], byte[]> call = client.newCall(raw(service, method), CallOptions.DEFAULT);
    call.start(outcome, new Metadata());
    call.request(1);
    call.sendMessage(request);
    call.halfClose();
    return outcome;
  }

  private static MethodDescriptor<byte[], byte[]> raw(String service, String method) {
    return MethodDescriptor.of(service, method, MethodType.UNARY, RawBytes.INSTANCE, RawBytes.INSTANCE, false);
  }

  private static void stop(TripleServer server) throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  private static final class Outcome extends ClientCall.Listener<byte[]> {
    final CompletableFuture<Status> closed = new CompletableFuture<>();

    @Override
    public void onClose(Status status, Metadata trailers) {
      closed.complete(status);
    }
  }

  /** Message bytes as they are: what a hand-built wrapper needs, in the wrappers' content type. */
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

  @ParameterizedTest
  @MethodSource("serializations")
  void anExceptionNoSignatureReachesArrivesAsAStandInWithItsClassAndMessage(Mailbox mailbox) {
    Parcel lost = new Parcel();
    lost.to = "lost";
    RemoteServiceException undeclared = assertThrows(RemoteServiceException.class, () -> mailbox.deliver(lost));
    assertEquals("io.triplerpc.transport.netty.pojo.LostInTransit", undeclared.remoteClassName());
    assertEquals("lost in van 7", undeclared.getMessage());
    assertTrue(undeclared.getStackTrace().length > 0);

    // A declared exception travels as itself; its cause, which the client could not build, as a stand-in.
    Parcel broken = new Parcel();
    broken.to = "lost, declared";
    Undeliverable declared = assertThrows(Undeliverable.class, () -> mailbox.deliver(broken));
    assertEquals("van broke down", declared.reason);
    RemoteServiceException cause = assertInstanceOf(RemoteServiceException.class, declared.getCause());
    assertEquals("io.triplerpc.transport.netty.pojo.LostInTransit", cause.remoteClassName());
    assertEquals("lost in van 9", cause.getMessage());
  }
}
