package io.triplerpc;

import java.util.concurrent.CompletableFuture;

/**
 * Calls the unary plain Java methods of a service without its classes, as Apache Dubbo's generic calls do
 * ({@code GenericService.$invoke}), against Triple and Dubbo providers alike; for gateways and tools. Get
 * one from {@link TripleClient#generic(String, CallOptions)}.
 *
 * <p>Arguments and results are in generic form: an object is a {@code Map} of its fields (its class may be
 * named by a {@code "class"} entry, and is so in results), a collection or array a {@code List}, an enum
 * its name; numbers, strings, booleans, {@code BigDecimal}, {@code BigInteger}, dates, {@code java.time}
 * values and {@code UUID}s are themselves. An exception the method throws is thrown as itself when its
 * class may be read here (see {@link TripleClient.Builder#allowDeserialization}).
 *
 * <pre>{@code
 * GenericService accounts = client.generic("com.acme.Accounts", CallOptions.DEFAULT);
 * Object account = accounts.invoke("open", new String[] {"com.acme.Owner", "int"},
 *     Map.of("name", "Ada"), 100);   // a Map with "class" -> "com.acme.Account", "balance" -> 100, ...
 * }</pre>
 */
public interface GenericService {

  /**
   * Calls {@code method} and waits for its result.
   *
   * @param parameterTypes the names of the method's parameter types ({@code "int"},
   *     {@code "java.lang.String"}, {@code "com.acme.Owner"}, {@code "java.lang.String[]"}); null to find
   *     the method by its name alone, when the service has one of that name
   * @throws StatusException if the call fails: UNIMPLEMENTED for a method that is not there,
   *     INVALID_ARGUMENT for arguments that do not fit its parameters
   * @throws Exception what the method threw, as itself when its class may be read here
   */
  Object invoke(String method, String[] parameterTypes, Object... arguments) throws Exception;

  /** Calls {@code method}; the future completes with its result, or fails as {@link #invoke} throws. */
  CompletableFuture<Object> invokeAsync(String method, String[] parameterTypes, Object... arguments);
}
