package io.triplerpc.transport.netty.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.AccessPolicy;
import io.triplerpc.Authenticator;
import io.triplerpc.CallCredentials;
import io.triplerpc.CallOptions;
import io.triplerpc.GenericService;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.math.BigDecimal;
import java.security.Principal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generic calls ({@code $invoke}, as Dubbo's GenericService makes them) of a plain Java service whose
 * classes the caller does not use: arguments and results as maps, lists and scalars, over a real socket;
 * the target method found by name and parameter types; class checks on {@code "class"} entries; declared
 * exceptions; access rules a generic call cannot get around.
 */
class GenericCallsTest {

  private static final String ACCOUNTS = "triple.test.Accounts";
  private static final String TRANSFER = Accounts.Transfer.class.getName();
  private static final AccountsImpl IMPLEMENTATION = new AccountsImpl();
  private static TripleServer server;
  private static TripleClient client;
  private static GenericService accounts;

  @BeforeAll
  static void start() {
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Accounts.Hessian.class, IMPLEMENTATION)
        .build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port())
        .allowDeserialization(Accounts.InsufficientFunds.class.getName())
        .build();
    accounts = client.generic(ACCOUNTS, CallOptions.DEFAULT.withTimeout(10, TimeUnit.SECONDS));
  }

  @AfterAll
  static void stop() throws InterruptedException {
    client.close();
    server.shutdownNow();
    server.awaitTermination(Duration.ofSeconds(10));
  }

  @Test
  void aRecordComesBackAsAMapNamingItsClass() throws Exception {
    Map<?, ?> alice = assertInstanceOf(Map.class, accounts.invoke("find", new String[] {"java.lang.String"}, "a1"));
    assertEquals(Accounts.Account.class.getName(), alice.get("class"));
    assertEquals("Alice", alice.get("owner"));
    assertEquals("GOLD", alice.get("tier"), "an enum is its name");
    assertEquals(new BigDecimal("1234.5600"), alice.get("balance"));
    assertEquals(LocalDate.of(2020, 2, 29), alice.get("opened"));
    assertEquals(List.of("vip", "early"), alice.get("tags"));
    assertEquals("Al", alice.get("nickname"), "an Optional is its value");
    assertTrue(alice.containsKey("nullable") && alice.get("nullable") == null, alice.toString());
  }

  @Test
  void mapsAndScalarsBecomeTheDeclaredTypes() throws Exception {
    Map<String, Object> transfer = Map.of("from", "a1", "to", "b2", "amount", new BigDecimal("34.56"), "note", "rent");
    Map<?, ?> after = (Map<?, ?>) accounts.invoke("transfer", new String[] {TRANSFER, "boolean"}, transfer, false);
    assertEquals(new BigDecimal("1200.0000"), after.get("balance"));
    assertEquals("rent", after.get("nullable"));

    Map<String, Object> account = Map.of("id", "x", "tier", "GOLD", "balance", 10, "tags", List.of(), "limits", Map.of());
    Object total = accounts.invoke("total", new String[] {"java.util.List", "java.util.Map"},
        List.of(account, account), Map.of("GOLD", "1.5"));
    assertEquals(new BigDecimal("23.0"), total);
  }

  @Test
  void parameterTypesMayBeLeftOutOrGivenInSourceForm() throws Exception {
    assertEquals(2, accounts.invoke("count", null));
    assertEquals("was x", accounts.invoke("nothing", new String[] {"java.lang.String"}, "x"));
    assertEquals("was x", accounts.invoke("nothing", null, "x"));
    int before = IMPLEMENTATION.touches.get();
    assertNull(accounts.invoke("touch", new String[0]));
    assertEquals(before + 1, IMPLEMENTATION.touches.get());
  }

  @Test
  void asyncMethodsAndAsyncCalls() throws Exception {
    List<?> gold = (List<?>) accounts.invokeAsync("byTier", new String[] {Accounts.Tier.class.getName()}, "GOLD")
        .get(10, TimeUnit.SECONDS);
    assertEquals(1, gold.size());
    assertEquals("a1", ((Map<?, ?>) gold.get(0)).get("id"));
    List<?> basic = (List<?>) accounts.invoke("byTier", null, "BASIC");
    assertEquals(List.of("b2"), basic.stream().map(account -> ((Map<?, ?>) account).get("id")).toList());
  }

  @Test
  void aDeclaredExceptionIsThrownAsItself() {
    Map<String, Object> transfer = Map.of("from", "b2", "to", "a1", "amount", 100, "note", "rent");
    Accounts.InsufficientFunds e = assertThrows(Accounts.InsufficientFunds.class,
        () -> accounts.invoke("transfer", new String[] {TRANSFER, "boolean"}, transfer, false));
    assertEquals("rent: short by 90", e.getMessage());
    CompletionException async = assertThrows(CompletionException.class,
        () -> accounts.invokeAsync("failAsync", null, "boom").join());
    assertInstanceOf(UnsupportedOperationException.class, async.getCause());
  }

  @Test
  void unknownMethodsAndBadArgumentsAreClearErrors() {
    StatusException unknown = assertThrows(StatusException.class, () -> accounts.invoke("nope", null));
    assertEquals(Status.Code.UNIMPLEMENTED, unknown.status().code());
    assertTrue(unknown.status().description().contains("triple.test.Accounts.nope"), unknown.status().description());
    StatusException wrongTypes = assertThrows(StatusException.class,
        () -> accounts.invoke("find", new String[] {"int"}, 1));
    assertEquals(Status.Code.UNIMPLEMENTED, wrongTypes.status().code());
    StatusException count = assertThrows(StatusException.class,
        () -> accounts.invoke("find", new String[] {"java.lang.String"}, "a", "b"));
    assertEquals(Status.Code.INVALID_ARGUMENT, count.status().code());
    StatusException shape = assertThrows(StatusException.class,
        () -> accounts.invoke("transfer", new String[] {TRANSFER, "boolean"}, "not a transfer", false));
    assertEquals(Status.Code.INVALID_ARGUMENT, shape.status().code());
    StatusException primitive = assertThrows(StatusException.class,
        () -> accounts.invoke("transfer", new String[] {TRANSFER, "boolean"}, Map.of(), null));
    assertEquals(Status.Code.INVALID_ARGUMENT, primitive.status().code());
  }

  @Test
  void aClassEntryNamingAClassTheServiceDoesNotReachIsRefused() throws Exception {
    Map<String, Object> gadget = Map.of("class", "java.lang.ProcessBuilder", "from", "a1", "amount", 1);
    StatusException e = assertThrows(StatusException.class,
        () -> accounts.invoke("transfer", new String[] {TRANSFER, "boolean"}, gadget, false));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.status().code());
    assertTrue(e.status().description().contains("java.lang.ProcessBuilder"), e.status().description());
    Map<String, Object> own = Map.of("class", TRANSFER, "from", "a1", "to", "b2", "amount", 1, "note", "n");
    assertEquals("n", ((Map<?, ?>) accounts.invoke("transfer", new String[] {TRANSFER, "boolean"}, own, true))
        .get("nullable"), "a class entry naming the declared class is used");
  }

  @Test
  void aGenericCallNeedsEveryRuleOfTheMethodsItCouldReach() throws Exception {
    AccessPolicy policy = AccessPolicy.builder(Authenticator.bearerToken(token -> (Principal) () -> token))
        .authorize(ACCOUNTS + "/transfer", (principal, call) -> principal.getName().equals("admin"))
        .build();
    TripleServer guarded = TripleServer.builder().host("127.0.0.1").port(0).accessPolicy(policy)
        .addService(Accounts.Hessian.class, new AccountsImpl()).build().start();
    try (TripleClient user = clientWithToken(guarded, "user"); TripleClient admin = clientWithToken(guarded, "admin")) {
      GenericService asUser = user.generic(ACCOUNTS, CallOptions.DEFAULT);
      StatusException denied = assertThrows(StatusException.class, () -> asUser.invoke("count", null));
      assertEquals(Status.Code.PERMISSION_DENIED, denied.status().code(), "count is open to users, but $invoke"
          + " could reach transfer too");
      assertEquals(2, user.proxy(Accounts.Hessian.class).count(), "the direct call is allowed");
      assertEquals(2, admin.generic(ACCOUNTS, CallOptions.DEFAULT).invoke("count", null));
    } finally {
      guarded.shutdownNow();
      guarded.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private static TripleClient clientWithToken(TripleServer target, String token) {
    return TripleClient.builder().address("127.0.0.1", target.port())
        .callCredentials(CallCredentials.bearerToken(token).allowingCleartext()).build();
  }
}
