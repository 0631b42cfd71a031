package io.triplerpc.internal.descriptor;

import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.serialization.wrapper.OverloadedArguments;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import java.util.ArrayList;
import java.util.List;

/**
 * The unary plain Java methods of a service that share one RPC method name (Java overloads, such as
 * {@code greet(String)} and {@code greet(String, int)}): one RPC path, served by one method whose requests
 * each name their overload ({@link OverloadedArguments}), as Dubbo serves them. A client calls an overload
 * through its own {@link MethodBinding}, whose request names its parameter types. Immutable.
 */
public final class OverloadSet {

  private final List<MethodBinding> overloads;
  private final MethodDescriptor<Object, Object> descriptor;

  /** @param overloads the methods of one name, each unary with plain Java types, in a stable order */
  OverloadSet(String serviceName, String name, Class<?> service, List<MethodBinding> overloads) {
    this.overloads = List.copyOf(overloads);
    List<WrapperCodecs> codecs = new ArrayList<>();
    List<WrappedMethod> wrapped = new ArrayList<>();
    boolean idempotent = true;
    for (MethodBinding overload : overloads) {
      codecs.add(overload.wrapped().codecs());
      wrapped.add(overload.wrapped());
      idempotent &= overload.descriptor().isIdempotent();
    }
    this.descriptor = MethodDescriptor.of(serviceName, name, MethodType.UNARY,
        OverloadedArguments.of(service.getName() + "." + name, codecs), WrappedMethod.overloadedResponses(wrapped),
        idempotent);
  }

  /**
   * The overloads, in the order {@link OverloadedArguments.Chosen#overload()} counts them: by number of
   * parameters, then by their types' names.
   */
  public List<MethodBinding> overloads() {
    return overloads;
  }

  /**
   * The RPC method a server serves for all of them: its requests are {@link OverloadedArguments.Chosen},
   * its responses those of the chosen overload ({@link WrappedMethod#answer}).
   */
  public MethodDescriptor<Object, Object> descriptor() {
    return descriptor;
  }

  /** The index of {@code binding} among {@link #overloads()} (by its Java method), or -1. */
  public int indexOf(MethodBinding binding) {
    for (int i = 0; i < overloads.size(); i++) {
      if (overloads.get(i).javaMethod().equals(binding.javaMethod())) {
        return i;
      }
    }
    return -1;
  }
}
