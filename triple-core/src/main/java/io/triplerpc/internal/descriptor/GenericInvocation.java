package io.triplerpc.internal.descriptor;

import io.triplerpc.TripleService;
import java.util.concurrent.CompletableFuture;

/**
 * The wire methods of Dubbo's generic calls, {@code $invoke} and {@code $invokeAsync}: the method name, its
 * parameter types' names and the arguments in generic form, in Dubbo's request wrapper; the result in
 * generic form. Both are the same on the wire; the server answers either asynchronously, and a generic
 * client calls {@code $invoke} for a blocking call and {@code $invokeAsync} for a future.
 */
public final class GenericInvocation {

  /** The wire method of a blocking generic call. */
  public static final String INVOKE = "$invoke";
  /** The wire method of an asynchronous generic call. */
  public static final String INVOKE_ASYNC = "$invokeAsync";

  private GenericInvocation() {}

  /** Whether {@code methodName} is a generic call's. */
  public static boolean isGeneric(String methodName) {
    return INVOKE.equals(methodName) || INVOKE_ASYNC.equals(methodName);
  }

  /** What a server serves: both wire methods, answered when the target method completes. */
  @TripleService
  public interface Served {
    CompletableFuture<Object> $invoke(String method, String[] parameterTypes, Object[] arguments);

    CompletableFuture<Object> $invokeAsync(String method, String[] parameterTypes, Object[] arguments);
  }

  /** What a client calls; a checked exception the method throws is thrown as itself. */
  @TripleService
  public interface Calls {
    Object $invoke(String method, String[] parameterTypes, Object[] arguments) throws Exception;

    CompletableFuture<Object> $invokeAsync(String method, String[] parameterTypes, Object[] arguments);
  }
}
