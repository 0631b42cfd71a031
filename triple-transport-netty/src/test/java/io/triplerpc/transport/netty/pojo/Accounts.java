package io.triplerpc.transport.netty.pojo;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A plain Java service: no protobuf anywhere. Served three times, with hessian2, fastjson2 and jackson. */
public interface Accounts extends Repository<Accounts.Account> {

  /** Hessian2, the default. */
  @TripleService(name = "triple.test.Accounts")
  interface Hessian extends Accounts {}

  /** The same service with fastjson2, Dubbo's other serialization. */
  @TripleService(name = "triple.test.AccountsFastjson2", serialization = "fastjson2")
  interface Fastjson2 extends Accounts {}

  /** The same service with Jackson's JSON. */
  @TripleService(name = "triple.test.AccountsJackson", serialization = "jackson")
  interface Jackson extends Accounts {}

  enum Tier { BASIC, GOLD }

  /** A record with every kind of field the issue names. */
  record Account(String id, String owner, Tier tier, BigDecimal balance, LocalDate opened, Instant touched,
      List<String> tags, Map<String, Integer> limits, Optional<String> nickname, String nullable)
      implements Serializable {}

  /** A POJO with inheritance. */
  class Base implements Serializable {
    public String note;
  }

  class Transfer extends Base {
    public String from;
    public String to;
    public BigDecimal amount;

    public Transfer() {}

    public Transfer(String from, String to, BigDecimal amount, String note) {
      this.from = from;
      this.to = to;
      this.amount = amount;
      this.note = note;
    }
  }

  /** A checked exception the service declares, with a field of its own. */
  class InsufficientFunds extends Exception {
    public BigDecimal missing;

    public InsufficientFunds() {}

    public InsufficientFunds(String message, BigDecimal missing) {
      super(message);
      this.missing = missing;
    }
  }

  Account transfer(Transfer transfer, boolean dryRun) throws InsufficientFunds;

  BigDecimal total(List<Account> accounts, Map<Tier, BigDecimal> bonus);

  void touch();

  String nothing(String ignored);

  int count();

  CompletableFuture<List<Account>> byTier(Tier tier);

  // Two wire methods: one throws, the other fails its future (names that differ keep the pair apart).
  @TripleMethod(name = "fail")
  String fail(String message);

  @TripleMethod(name = "failAsync")
  CompletableFuture<String> failAsync(String message);

  void stream(Tier tier, StreamObserver<Account> accounts);
}
