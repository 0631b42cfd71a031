package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.transport.netty.pojo.Accounts.Account;
import io.triplerpc.transport.netty.pojo.Accounts.InsufficientFunds;
import io.triplerpc.transport.netty.pojo.Accounts.Tier;
import io.triplerpc.transport.netty.pojo.Accounts.Transfer;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A plain Java interface (records, POJOs with inheritance, enums, collections, Optional, java.time,
 * BigDecimal, nulls, generics, checked and runtime exceptions) served and called over a real socket,
 * with hessian2, fastjson2 and jackson, in Dubbo's wrapper messages.
 */
class PlainJavaServiceTest {

  private static final AccountsImpl IMPL = new AccountsImpl();
  private static TripleServer server;
  private static TripleClient client;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Accounts.Hessian.class, IMPL)
        .addService(Accounts.Fastjson2.class, IMPL)
        .addService(Accounts.Jackson.class, IMPL)
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  static Stream<Accounts> serializations() {
    return Stream.of(client.proxy(Accounts.Hessian.class), client.proxy(Accounts.Fastjson2.class),
        client.proxy(Accounts.Jackson.class));
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void everyTypeRoundTrips(Accounts accounts) throws Exception {
    assertEquals(AccountsImpl.ALICE, accounts.find("a1"));
    assertEquals(List.of(AccountsImpl.ALICE, AccountsImpl.BOB), accounts.findAll());
    assertEquals(new BigDecimal("1254.5600"), accounts.total(List.of(AccountsImpl.ALICE, AccountsImpl.BOB),
        Map.of(Tier.BASIC, BigDecimal.TEN)));
    assertEquals(2, accounts.count());
    assertEquals(List.of(AccountsImpl.BOB), accounts.byTier(Tier.BASIC).get(10, TimeUnit.SECONDS));
    Account moved = accounts.transfer(new Transfer("a1", "b2", new BigDecimal("34.56"), "rent"), false);
    assertEquals(new BigDecimal("1200.0000"), moved.balance());
    assertEquals("rent", moved.nullable());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void nullsAndVoid(Accounts accounts) {
    assertNull(accounts.nothing(null));
    assertEquals("was x", accounts.nothing("x"));
    int before = IMPL.touches.get();
    accounts.touch();
    assertEquals(before + 1, IMPL.touches.get());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void exceptionsThrownByTheServiceReachTheCallerAsThemselves(Accounts accounts) {
    InsufficientFunds checked = assertThrows(InsufficientFunds.class,
        () -> accounts.transfer(new Transfer("b2", "a1", new BigDecimal("11"), "loan"), true));
    assertEquals("loan: short by 1", checked.getMessage());
    assertEquals(new BigDecimal("1"), checked.missing);

    IllegalStateException runtime = assertThrows(IllegalStateException.class, () -> accounts.fail("boom"));
    assertEquals("boom", runtime.getMessage());
    NoSuchElementException missing = assertThrows(NoSuchElementException.class, () -> accounts.find("zz"));
    assertEquals("no account zz", missing.getMessage());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void aFutureCompletesExceptionallyWithTheException(Accounts accounts) {
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> accounts.failAsync("async").get(10, TimeUnit.SECONDS));
    assertInstanceOf(UnsupportedOperationException.class, failed.getCause());
    assertEquals("async", failed.getCause().getMessage());
  }

  @ParameterizedTest
  @MethodSource("serializations")
  void serverStreamingCarriesOneValuePerMessage(Accounts accounts) throws Exception {
    List<Account> received = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    accounts.stream(Tier.GOLD, new io.triplerpc.StreamObserver<>() {
      @Override
      public void onNext(Account value) {
        received.add(value);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    });
    done.get(10, TimeUnit.SECONDS);
    assertEquals(List.of(AccountsImpl.ALICE), received);
  }
}
