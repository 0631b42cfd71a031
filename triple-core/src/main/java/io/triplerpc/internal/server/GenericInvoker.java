package io.triplerpc.internal.server;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.internal.descriptor.CallShape;
import io.triplerpc.internal.descriptor.GenericInvocation;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.serialization.MalformedMessageException;
import io.triplerpc.serialization.internal.Types;
import io.triplerpc.serialization.json.GenericValues;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Answers Dubbo's generic calls of one service: finds the unary plain Java method a call names (by name,
 * and by its parameter types' names when given), turns the arguments from generic form into the declared
 * types ({@link GenericValues#realize}, under the service's class checks), calls the implementation, and
 * answers the result in generic form. What the method throws travels as it would from a direct call.
 */
final class GenericInvoker implements GenericInvocation.Served {

  private final ServiceDescriptor service;
  private final Object implementation;
  /** Unary plain Java methods by Java name and by wire name. */
  private final Map<String, List<MethodBinding>> byName = new HashMap<>();

  GenericInvoker(ServiceDescriptor service, Object implementation) {
    this.service = service;
    this.implementation = implementation;
    for (MethodBinding declared : service.methods()) {
      if (declared.wrapped() != null && declared.wrapped().isUnary()) {
        // Named as declared (foo, not fooAsync), called in the form the implementation serves.
        MethodBinding binding = service.servedForm(declared, implementation.getClass());
        byName.computeIfAbsent(declared.javaMethod().getName(), n -> new ArrayList<>()).add(binding);
        if (!binding.descriptor().methodName().equals(declared.javaMethod().getName())) {
          byName.computeIfAbsent(binding.descriptor().methodName(), n -> new ArrayList<>()).add(binding);
        }
      }
    }
  }

  @Override
  public CompletableFuture<Object> $invoke(String method, String[] parameterTypes, Object[] arguments) {
    return invoke(method, parameterTypes, arguments);
  }

  @Override
  public CompletableFuture<Object> $invokeAsync(String method, String[] parameterTypes, Object[] arguments) {
    return invoke(method, parameterTypes, arguments);
  }

  private CompletableFuture<Object> invoke(String name, String[] parameterTypes, Object[] arguments) {
    MethodBinding binding = find(name == null ? "" : name.trim(), parameterTypes);
    Method method = binding.javaMethod();
    Type[] declared = method.getGenericParameterTypes();
    Object[] given = arguments == null ? new Object[declared.length] : arguments;
    if (given.length != declared.length) {
      throw invalid(method, "takes " + declared.length + " arguments, the generic call gave " + given.length);
    }
    Object[] realized = new Object[declared.length];
    for (int i = 0; i < declared.length; i++) {
      Type type = Types.resolve(declared[i], service.serviceInterface());
      if (given[i] == null && method.getParameterTypes()[i].isPrimitive()) {
        throw invalid(method, "argument " + (i + 1) + " is a " + type.getTypeName() + ", not null");
      }
      try {
        realized[i] = GenericValues.realize(given[i], type, service.serviceInterface().getClassLoader(),
            service.allowedClasses());
      } catch (MalformedMessageException e) {
        throw invalid(method, "argument " + (i + 1) + ": " + e.getMessage());
      }
    }
    Object result;
    try {
      result = method.invoke(implementation, realized);
    } catch (InvocationTargetException e) {
      return CompletableFuture.failedFuture(e.getCause());
    } catch (IllegalAccessException e) {
      throw Status.INTERNAL.withDescription("Cannot call " + method + ": " + e.getMessage()).withCause(e).asException();
    }
    if (binding.shape() == CallShape.FUTURE_UNARY) {
      return result == null ? CompletableFuture.completedFuture(null)
          : ((CompletionStage<?>) result).thenApply(GenericValues::generalize).toCompletableFuture();
    }
    return CompletableFuture.completedFuture(GenericValues.generalize(result));
  }

  /** The method a generic call names; UNIMPLEMENTED, naming what is served, if none or several match. */
  private MethodBinding find(String name, String[] parameterTypes) {
    List<MethodBinding> named = byName.get(name);
    if (named == null) {
      throw Status.UNIMPLEMENTED.withDescription("Generic call of " + service.serviceName() + "." + name
          + ": no such unary plain Java method; generic calls reach " + byName.keySet()).asException();
    }
    if (parameterTypes == null) {
      if (named.size() == 1) {
        return named.get(0);
      }
      throw Status.UNIMPLEMENTED.withDescription("Generic call of " + service.serviceName() + "." + name
          + ": several methods have that name; give the parameter types").asException();
    }
    for (MethodBinding binding : named) {
      if (sameTypes(binding.javaMethod().getParameterTypes(), parameterTypes)) {
        return binding;
      }
    }
    throw Status.UNIMPLEMENTED.withDescription("Generic call of " + service.serviceName() + "." + name
        + String.join(", ", List.of(parameterTypes)).transform(types -> "(" + types + ")")
        + ": no method with those parameter types").asException();
  }

  /** Whether each name is its type's binary name ({@code [Ljava.lang.String;}) or source name ({@code java.lang.String[]}). */
  private static boolean sameTypes(Class<?>[] types, String[] names) {
    if (types.length != names.length) {
      return false;
    }
    for (int i = 0; i < types.length; i++) {
      String name = names[i] == null ? "" : names[i].trim();
      if (!name.equals(types[i].getName()) && !name.equals(types[i].getTypeName())) {
        return false;
      }
    }
    return true;
  }

  private StatusException invalid(Method method, String problem) {
    return Status.INVALID_ARGUMENT.withDescription("Generic call of " + service.serviceName() + "."
        + method.getName() + ": " + problem).asException();
  }
}
