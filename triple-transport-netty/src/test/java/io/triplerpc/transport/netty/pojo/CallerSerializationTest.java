package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.internal.wrapper.TripleResponseWrapper;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.object.ObjectSerializations;
import io.triplerpc.serialization.wrapper.WrapperCodec;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import io.triplerpc.transport.netty.pojo.Accounts.InsufficientFunds;
import io.triplerpc.transport.netty.pojo.Accounts.Tier;
import io.triplerpc.transport.netty.pojo.Accounts.Transfer;
import io.triplerpc.transport.netty.pojo.Tally.Entry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Over a real socket: a server of a plain Java service reads requests in hessian2, fastjson2 and jackson
 * alike, whatever its own serialization, and answers each caller in the serialization the caller wrote, as
 * Dubbo 3.2+ providers do; every call shape, results, void, null and thrown exceptions included.
 */
class CallerSerializationTest {

  /** Callers of the server's hessian2 {@code triple.test.Accounts} that write fastjson2. */
  @TripleService(name = "triple.test.Accounts", serialization = "fastjson2")
  interface AccountsInFastjson2 extends Accounts {}

  /** Callers of the server's hessian2 {@code triple.test.Accounts} that write jackson. */
  @TripleService(name = "triple.test.Accounts", serialization = "jackson")
  interface AccountsInJackson extends Accounts {}

  private static TripleServer server;
  private static TripleClient client;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Accounts.Hessian.class, new AccountsImpl())
        .addService(Accounts.Fastjson2.class, new AccountsImpl())
        .addService(Tally.Hessian.class, new Tally.Impl())
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  static Stream<Accounts> callersOfTheHessianService() {
    return Stream.of(client.proxy(Accounts.Hessian.class), client.proxy(AccountsInFastjson2.class),
        client.proxy(AccountsInJackson.class));
  }

  @ParameterizedTest
  @MethodSource("callersOfTheHessianService")
  void unaryCallsInEverySerializationReachOneServer(Accounts accounts) {
    assertEquals(AccountsImpl.ALICE, accounts.find("a1"));
    assertEquals(new BigDecimal("1254.5600"), accounts.total(List.of(AccountsImpl.ALICE, AccountsImpl.BOB),
        Map.of(Tier.BASIC, BigDecimal.TEN)));
    assertNull(accounts.nothing(null));
    accounts.touch();
    InsufficientFunds thrown = assertThrows(InsufficientFunds.class,
        () -> accounts.transfer(new Transfer("b2", "a1", new BigDecimal("11"), "loan"), true));
    assertEquals("loan: short by 1", thrown.getMessage());
    assertEquals(new BigDecimal("1"), thrown.missing);
  }

  static Stream<Tally> talliers() {
    return Stream.of(client.proxy(Tally.Hessian.class), client.proxy(Tally.Fastjson2.class),
        client.proxy(Tally.Jackson.class));
  }

  @ParameterizedTest
  @MethodSource("talliers")
  void clientAndBidiStreamsInEverySerializationReachOneServer(Tally tally) throws Exception {
    Recorder<Entry> total = new Recorder<>();
    StreamObserver<Entry> entries = tally.sum(total);
    entries.onNext(new Entry("a", new BigDecimal("1.5")));
    entries.onNext(new Entry("b", new BigDecimal("2")));
    entries.onCompleted();
    assertEquals(List.of(new Entry("2 entries", new BigDecimal("3.5"))), total.done.get(10, TimeUnit.SECONDS));

    Recorder<Entry> totals = new Recorder<>();
    StreamObserver<Entry> running = tally.running(totals);
    running.onNext(new Entry("a", BigDecimal.ONE));
    running.onNext(new Entry("b", BigDecimal.TEN));
    running.onCompleted();
    assertEquals(List.of(new Entry("a", BigDecimal.ONE), new Entry("b", new BigDecimal("11"))),
        totals.done.get(10, TimeUnit.SECONDS));
  }

  static Stream<Arguments> serviceAndCaller() {
    // The hessian2 service answering a fastjson2 and a jackson caller, the fastjson2 one a hessian2 caller.
    return Stream.of(Arguments.of("triple.test.Accounts", "fastjson2"), Arguments.of("triple.test.Accounts", "jackson"),
        Arguments.of("triple.test.Accounts", "hessian2"), Arguments.of("triple.test.AccountsFastjson2", "hessian2"));
  }

  @ParameterizedTest(name = "{0} answers a {1} caller")
  @MethodSource("serviceAndCaller")
  void theServerAnswersInTheSerializationTheCallerWrote(String service, String callerName) throws Exception {
    ObjectSerialization caller = ObjectSerializations.named(callerName);
    WrapperCodecs find = codecs("find", caller);

    Outcome found = call(service, "find", MethodType.UNARY, bytes(find.arguments(), new Object[] {"b2"}));
    assertEquals(Status.Code.OK, found.closed.get(10, TimeUnit.SECONDS).code());
    assertEquals(caller.wireName(), serializeType(found.messages.get(0)));
    assertEquals(AccountsImpl.BOB, find.result().read(ByteBuffer.wrap(found.messages.get(0))));

    // A thrown exception is a response too, in the caller's serialization.
    WrapperCodecs transfer = codecs("transfer", caller);
    Outcome refused = call(service, "transfer", MethodType.UNARY, bytes(transfer.arguments(),
        new Object[] {new Transfer("b2", "a1", new BigDecimal("11"), "loan"), true}));
    assertEquals(Status.Code.OK, refused.closed.get(10, TimeUnit.SECONDS).code());
    assertEquals("3", refused.headers.get(WrapperCodecs.EXCEPTION_CODE_HEADER));
    assertEquals(caller.wireName(), serializeType(refused.messages.get(0)));
    assertEquals("loan: short by 1", transfer.exception().read(ByteBuffer.wrap(refused.messages.get(0))).getMessage());

    // Each message of a response stream too: its request is the one argument before the observer.
    WrapperCodec<Object[]> tier = WrapperCodecs.requestCodec("stream", caller, Tier.class.getClassLoader(),
        List.of(Tier.class), AllowedClasses.forType(Tier.class, Tier.class.getClassLoader()));
    Outcome streamed = call(service, "stream", MethodType.SERVER_STREAMING, bytes(tier, new Object[] {null}));
    assertEquals(Status.Code.OK, streamed.closed.get(10, TimeUnit.SECONDS).code());
    assertEquals(2, streamed.messages.size());
    for (byte[] message : streamed.messages) {
      assertEquals(caller.wireName(), serializeType(message));
    }
  }

  private static Method method(String name) {
    return Stream.of(Accounts.class.getMethods()).filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
  }

  private static WrapperCodecs codecs(String method, ObjectSerialization serialization) {
    return WrapperCodecs.forMethod(Accounts.class, method(method), serialization);
  }

  private static byte[] bytes(MessageCodec<Object[]> codec, Object[] arguments) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(arguments, out);
    return out.toByteArray();
  }

  private static String serializeType(byte[] response) throws IOException {
    return TripleResponseWrapper.parseFrom(response).getSerializeType();
  }

  /** Sends {@code request} as the one message of a call and records what comes back. */
  private static Outcome call(String service, String method, MethodType type, byte[] request) {
    Outcome outcome = new Outcome();
    MethodDescriptor<byte[], byte[]> raw =
        MethodDescriptor.of(service, method, type, RawBytes.INSTANCE, RawBytes.INSTANCE, false);
    ClientCall<byte[], byte[]> call = client.newCall(raw, CallOptions.DEFAULT);
    call.start(outcome, new Metadata());
    call.request(Integer.MAX_VALUE);
    call.sendMessage(request);
    call.halfClose();
    return outcome;
  }

  private static final class Outcome extends ClientCall.Listener<byte[]> {
    final List<byte[]> messages = new CopyOnWriteArrayList<>();
    final CompletableFuture<Status> closed = new CompletableFuture<>();
    volatile Metadata headers;

    @Override
    public void onHeaders(Metadata headers) {
      this.headers = headers;
    }

    @Override
    public void onMessage(byte[] message) {
      messages.add(message);
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      closed.complete(status);
    }
  }

  /** Collects a response stream. */
  private static final class Recorder<T> implements StreamObserver<T> {
    private final List<T> values = new CopyOnWriteArrayList<>();
    final CompletableFuture<List<T>> done = new CompletableFuture<>();

    @Override
    public void onNext(T value) {
      values.add(value);
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(List.copyOf(values));
    }
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
