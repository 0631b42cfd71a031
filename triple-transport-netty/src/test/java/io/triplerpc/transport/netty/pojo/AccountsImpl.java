package io.triplerpc.transport.netty.pojo;

import io.triplerpc.StreamObserver;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** Serves both variants of {@link Accounts}. */
final class AccountsImpl implements Accounts.Hessian, Accounts.Fastjson2, Accounts.Jackson {

  static final Account ALICE = new Account("a1", "Alice", Tier.GOLD, new BigDecimal("1234.5600"),
      LocalDate.of(2020, 2, 29), Instant.parse("2026-11-23T10:15:30.123456789Z"), List.of("vip", "early"),
      Map.of("daily", 500, "monthly", 9000), Optional.of("Al"), null);
  static final Account BOB = new Account("b2", "Bob", Tier.BASIC, new BigDecimal("10"),
      LocalDate.of(1999, 12, 31), Instant.EPOCH, List.of(), Map.of(), Optional.empty(), "set");

  final AtomicInteger touches = new AtomicInteger();

  @Override
  public Account find(String id) {
    return findAll().stream().filter(a -> a.id().equals(id)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("no account " + id));
  }

  @Override
  public List<Account> findAll() {
    return List.of(ALICE, BOB);
  }

  @Override
  public Account transfer(Transfer transfer, boolean dryRun) throws InsufficientFunds {
    Account from = find(transfer.from);
    BigDecimal left = from.balance().subtract(transfer.amount);
    if (left.signum() < 0) {
      throw new InsufficientFunds(transfer.note + ": short by " + left.negate(), left.negate());
    }
    return new Account(from.id(), from.owner(), from.tier(), dryRun ? from.balance() : left, from.opened(),
        from.touched(), from.tags(), from.limits(), from.nickname(), transfer.note);
  }

  @Override
  public BigDecimal total(List<Account> accounts, Map<Tier, BigDecimal> bonus) {
    BigDecimal sum = BigDecimal.ZERO;
    for (Account account : accounts) {
      sum = sum.add(account.balance()).add(bonus.getOrDefault(account.tier(), BigDecimal.ZERO));
    }
    return sum;
  }

  @Override
  public void touch() {
    touches.incrementAndGet();
  }

  @Override
  public String nothing(String ignored) {
    return ignored == null ? null : "was " + ignored;
  }

  @Override
  public int count() {
    return findAll().size();
  }

  @Override
  public CompletableFuture<List<Account>> byTier(Tier tier) {
    return CompletableFuture.supplyAsync(() -> findAll().stream().filter(a -> a.tier() == tier).toList());
  }

  @Override
  public String fail(String message) {
    throw new IllegalStateException(message);
  }

  @Override
  public CompletableFuture<String> failAsync(String message) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(message));
  }

  @Override
  public void stream(Tier tier, StreamObserver<Account> accounts) {
    findAll().stream().filter(a -> a.tier() == tier || tier == null).forEach(accounts::onNext);
    accounts.onCompleted();
  }
}
