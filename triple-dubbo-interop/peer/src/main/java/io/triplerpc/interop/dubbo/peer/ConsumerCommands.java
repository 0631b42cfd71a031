package io.triplerpc.interop.dubbo.peer;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.fastjson2.JSONWriter;
import com.google.protobuf.Message;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.dubbo.common.config.configcenter.DynamicConfiguration;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.StatusRpcException;
import org.apache.dubbo.rpc.service.GenericService;

/**
 * Runs the consumer's commands: one JSON object per line in, one per line out, in order.
 *
 * <p>A command names a call through the Dubbo references:
 * {@code {"id":1,"service":"<interface>","method":"<name>","args":[...],"attachments":{"k":"v"},"timeoutMillis":300}}.
 * {@code "parameterTypes":["long"]}, optional, names one of several overloads by its parameter types' names.
 * {@code args} are the method's arguments, each read as its declared type (a protobuf message as the
 * base64 of its encoding); for a streaming method they are its request messages: the one request of
 * {@code void m(Q, StreamObserver<R>)}, or those a {@code StreamObserver<Q> m(StreamObserver<R>)} call
 * sends before completing. {@code attachments} become Dubbo's client attachments (request headers),
 * {@code timeoutMillis} the call's timeout (Dubbo's {@code timeout} attachment); both optional.
 *
 * <p>The answer: {@code {"id":1,"ok":true,"result":...,"attachments":{...}}} with the result as JSON
 * (a stream's as the list of its messages; messages as base64) and, for unary calls, the response
 * attachments Dubbo read; or {@code {"id":1,"ok":false,"exception":"<class>","message":"...",
 * "fields":{...},"status":"<gRPC code>","description":"...","rpcCode":N,"cause":"<class>",
 * "causeMessage":"...","messages":[...]}}: the exception the call ended with as the caller sees it,
 * its own getters' values, the gRPC status of the {@link StatusRpcException} in its causes if any
 * (Dubbo wraps it in an {@link RpcException}), Dubbo's {@link RpcException} code, its cause, and the
 * messages a stream delivered before it failed.
 *
 * <p>With a registry, a command may instead write a governance rule through Dubbo's own
 * {@code DynamicConfiguration} on that ZooKeeper, as Dubbo Admin does:
 * {@code {"id":1,"publishRule":"<key>","content":"<yaml>"}} (in Dubbo's group {@code dubbo}), or remove
 * one: {@code {"id":1,"removeRule":"<key>"}}; the answer is {@code {"id":1,"ok":<what Dubbo returned>}}.
 */
final class ConsumerCommands {

  private static final JSONWriter.Feature[] WRITE = {JSONWriter.Feature.WriteNulls};

  /** Dubbo's proxy of each interface. */
  private final Map<Class<?>, Object> proxies;
  /** Dubbo's generic reference to each interface, by name. */
  private final Map<String, GenericService> generic;

  /** Dubbo's config center on the registry's ZooKeeper, or null without a registry. */
  private final DynamicConfiguration rules;

  ConsumerCommands(Map<Class<?>, Object> proxies, Map<String, GenericService> generic, DynamicConfiguration rules) {
    this.proxies = proxies;
    this.generic = generic;
    this.rules = rules;
  }

  private String writeRule(Object id, JSONObject command) {
    try {
      if (rules == null) {
        throw new IllegalStateException("no config center: start the consumer with --registry");
      }
      boolean ok = command.containsKey("publishRule")
          ? rules.publishConfig(command.getString("publishRule"), DynamicConfiguration.DEFAULT_GROUP,
              command.getString("content"))
          : rules.removeConfig(command.getString("removeRule"), DynamicConfiguration.DEFAULT_GROUP);
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("id", id);
      answer.put("ok", ok);
      return JSON.toJSONString(answer, WRITE);
    } catch (RuntimeException e) {
      return JSON.toJSONString(failure(id, e, List.of()), WRITE);
    }
  }

  String execute(String line) {
    JSONObject command;
    try {
      command = JSON.parseObject(line);
    } catch (RuntimeException e) {
      return JSON.toJSONString(failure(null, e, List.of()), WRITE);
    }
    Object id = command.get("id");
    List<Object> received = new ArrayList<>();
    if (command.getBooleanValue("generic")) {
      return invokeGeneric(id, command);
    }
    if (command.containsKey("publishRule") || command.containsKey("removeRule")) {
      return writeRule(id, command);
    }
    try {
      Class<?> service = proxies.keySet().stream()
          .filter(type -> type.getName().equals(command.getString("service"))).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no reference to " + command.getString("service")));
      Object proxy = proxies.get(service);
      JSONArray parameterTypes = command.getJSONArray("parameterTypes");
      Method method = parameterTypes == null ? method(service, command.getString("method"))
          : overload(service, command.getString("method"), parameterTypes.toJavaList(String.class));
      JSONArray args = command.getJSONArray("args");
      if (args == null) {
        args = new JSONArray();
      }
      JSONObject attachments = command.getJSONObject("attachments");
      if (attachments != null) {
        attachments.forEach((key, value) -> RpcContext.getClientAttachment().setAttachment(key, String.valueOf(value)));
      }
      long timeout = command.getLongValue("timeoutMillis", 0);
      if (timeout > 0) {
        RpcContext.getClientAttachment().setObjectAttachment("timeout", (int) timeout);
      }
      long wait = (timeout > 0 ? timeout : 5000) + 10_000;
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("id", id);
      answer.put("ok", true);
      if (isServerStreaming(method)) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Object request = read(args, 0, method.getGenericParameterTypes()[0]);
        invoke(method, proxy, request, collector(received, done));
        await(done, wait);
        answer.put("result", received);
      } else if (isBidiShaped(method)) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        @SuppressWarnings("unchecked")
        StreamObserver<Object> requests = (StreamObserver<Object>) invoke(method, proxy, collector(received, done));
        Type requestType = typeArgument(method.getGenericReturnType());
        for (int i = 0; i < args.size(); i++) {
          requests.onNext(read(args, i, requestType));
        }
        requests.onCompleted();
        await(done, wait);
        answer.put("result", received);
      } else {
        Type[] types = method.getGenericParameterTypes();
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
          arguments[i] = read(args, i, types[i]);
        }
        answer.put("result", write(invoke(method, proxy, arguments)));
        answer.put("attachments", stringsOf(RpcContext.getServerContext().getObjectAttachments()));
      }
      return JSON.toJSONString(answer, WRITE);
    } catch (Throwable t) {
      return JSON.toJSONString(failure(id, t, received), WRITE);
    } finally {
      RpcContext.getClientAttachment().clearAttachments();
    }
  }

  /**
   * A generic call: {@code {"id":1,"generic":true,"service":"<interface>","method":"<name>","types":[...],
   * "args":[...]}} through Dubbo's {@link GenericService#$invoke}, the arguments as plain maps, lists and
   * scalars (as a gateway holds them); the answer's result is what $invoke returned, as JSON.
   */
  private String invokeGeneric(Object id, JSONObject command) {
    try {
      GenericService service = generic.get(command.getString("service"));
      if (service == null) {
        throw new IllegalArgumentException("no generic reference to " + command.getString("service"));
      }
      JSONArray types = command.getJSONArray("types");
      JSONArray args = command.getJSONArray("args");
      Object[] arguments = args == null ? new Object[0] : (Object[]) plain(args.toArray());
      Object result = service.$invoke(command.getString("method"),
          types == null ? null : types.toArray(String.class), arguments);
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("id", id);
      answer.put("ok", true);
      answer.put("result", result);
      answer.put("resultClass", result == null ? null : result.getClass().getName());
      return JSON.toJSONString(answer, WRITE);
    } catch (Throwable t) {
      return JSON.toJSONString(failure(id, t, List.of()), WRITE);
    }
  }

  /** fastjson2's JSON objects and arrays as the JDK's maps and lists, which any peer may read. */
  private static Object plain(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new HashMap<>();
      map.forEach((key, entry) -> copy.put(key, plain(entry)));
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(element -> copy.add(plain(element)));
      return copy;
    }
    if (value instanceof Object[] array) {
      Object[] copy = new Object[array.length];
      for (int i = 0; i < array.length; i++) {
        copy[i] = plain(array[i]);
      }
      return copy;
    }
    return value;
  }

  private static Method method(Class<?> service, String name) {
    for (Method method : service.getMethods()) {
      if (method.getName().equals(name) && !Modifier.isStatic(method.getModifiers()) && !method.isDefault()) {
        return method;
      }
    }
    throw new IllegalArgumentException("no method " + name + " in " + service.getName());
  }

  /** The overload {@code name} whose parameter types' names are {@code parameterTypes}. */
  private static Method overload(Class<?> service, String name, List<String> parameterTypes) {
    for (Method method : service.getMethods()) {
      List<String> types = new ArrayList<>();
      for (Class<?> type : method.getParameterTypes()) {
        types.add(type.getName());
      }
      if (method.getName().equals(name) && types.equals(parameterTypes)) {
        return method;
      }
    }
    throw new IllegalArgumentException("no method " + name + parameterTypes + " in " + service.getName());
  }

  private static boolean isServerStreaming(Method method) {
    Class<?>[] parameters = method.getParameterTypes();
    return parameters.length == 2 && parameters[1] == StreamObserver.class && method.getReturnType() == void.class;
  }

  private static boolean isBidiShaped(Method method) {
    Class<?>[] parameters = method.getParameterTypes();
    return parameters.length == 1 && parameters[0] == StreamObserver.class
        && method.getReturnType() == StreamObserver.class;
  }

  private static Object invoke(Method method, Object proxy, Object... arguments) throws Throwable {
    try {
      return method.invoke(proxy, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static StreamObserver<Object> collector(List<Object> received, CompletableFuture<Void> done) {
    return new StreamObserver<>() {
      @Override
      public void onNext(Object message) {
        synchronized (received) {
          received.add(write(message));
        }
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        done.complete(null);
      }
    };
  }

  private static void await(CompletableFuture<Void> done, long millis) throws Throwable {
    try {
      done.get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause();
    } catch (TimeoutException e) {
      throw new TimeoutException("the stream did not end within " + millis + " ms");
    }
  }

  private static Type typeArgument(Type streamObserver) {
    return ((ParameterizedType) streamObserver).getActualTypeArguments()[0];
  }

  private static Object read(JSONArray args, int index, Type type) throws Exception {
    if (index >= args.size() || args.get(index) == null) {
      return null;
    }
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    if (Message.class.isAssignableFrom(raw)) {
      byte[] bytes = Base64.getDecoder().decode(args.getString(index));
      return raw.getMethod("parseFrom", byte[].class).invoke(null, (Object) bytes);
    }
    return args.getObject(index, type);
  }

  private static Object write(Object value) {
    return value instanceof Message message ? Base64.getEncoder().encodeToString(message.toByteArray()) : value;
  }

  private static Map<String, String> stringsOf(Map<String, Object> attachments) {
    Map<String, String> strings = new LinkedHashMap<>();
    attachments.forEach((key, value) -> {
      if (value instanceof String string) {
        strings.put(key, string);
      }
    });
    return strings;
  }

  private static Map<String, Object> failure(Object id, Throwable thrown, List<Object> received) {
    Throwable t = thrown instanceof UndeclaredThrowableException u && u.getCause() != null ? u.getCause() : thrown;
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("id", id);
    answer.put("ok", false);
    answer.put("exception", t.getClass().getName());
    answer.put("message", t.getMessage());
    answer.put("fields", fields(t));
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof StatusRpcException status) {
        answer.put("status", status.getStatus().code.name());
        answer.put("description", status.getStatus().description);
        break;
      }
    }
    if (t instanceof RpcException rpc) {
      answer.put("rpcCode", rpc.getCode());
    }
    if (t.getCause() != null) {
      answer.put("cause", t.getCause().getClass().getName());
      answer.put("causeMessage", t.getCause().getMessage());
    }
    synchronized (received) {
      answer.put("messages", new ArrayList<>(received));
    }
    return answer;
  }

  /** The values of the getters an exception class declares below {@link Throwable} and Dubbo's exceptions. */
  private static Map<String, Object> fields(Throwable t) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Class<?> type = t.getClass(); type != null && type != Throwable.class; type = type.getSuperclass()) {
      if (type.getName().startsWith("java.") || type.getName().startsWith("org.apache.dubbo.")) {
        continue;
      }
      for (Method method : type.getDeclaredMethods()) {
        if (method.getName().startsWith("get") && method.getParameterCount() == 0
            && Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())) {
          try {
            String name = method.getName().substring(3);
            fields.put(Character.toLowerCase(name.charAt(0)) + name.substring(1), method.invoke(t));
          } catch (ReflectiveOperationException e) {
            fields.put(method.getName(), e.toString());
          }
        }
      }
    }
    return fields;
  }
}
