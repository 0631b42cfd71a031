package io.triplerpc.internal.client;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import io.triplerpc.Status;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a gRPC service config (grpc's {@code doc/service_config.md} and
 * {@code grpc/service_config/service_config.proto}, retries as proposal A6 says) into what a client
 * honours: per name, a retry or hedging policy and a timeout; and the retry throttling. JSON text goes
 * through protobuf's JSON parser into a {@link Struct}, and that into the map form grpc-java's
 * {@code defaultServiceConfig} takes, so both entry points share one interpreter.
 *
 * <p>As in gRPC: field names are lowerCamelCase; null is the same as absent; a name without a service
 * is the default of every method, without a method its service's; a method config without names applies
 * to nothing; {@code maxAttempts} above 5 counts as 5. Numbers may be JSON numbers or numeric strings
 * (proto3's JSON mapping allows both), status codes names ({@code "UNAVAILABLE"}) or numbers. Fields Triple
 * has no equivalent for ({@code waitForReady}, {@code maxRequestMessageBytes}, {@code maxResponseMessageBytes},
 * {@code loadBalancingConfig}, {@code loadBalancingPolicy}) are type-checked, then ignored with a debug log;
 * unknown fields are ignored the same way. Every error is an {@link IllegalArgumentException} whose message
 * starts with the path of the offending value, such as {@code methodConfig[0].retryPolicy.maxAttempts}.
 */
final class ServiceConfigParser {

  private static final Logger log = LoggerFactory.getLogger(ServiceConfigParser.class);

  private ServiceConfigParser() {}

  /**
   * The config in {@code json}, a JSON object.
   *
   * @throws IllegalArgumentException if it is not JSON, not an object, or not a valid service config
   */
  static ServiceConfig parse(String json) {
    Objects.requireNonNull(json, "json");
    Struct.Builder struct = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(json, struct);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Service config is not a JSON object: " + e.getMessage(), e);
    }
    return parse(toMap(struct.build()));
  }

  /** {@code struct} as parsed JSON: maps, lists, strings, doubles, booleans and nulls. */
  static Map<String, Object> toMap(Struct struct) {
    Map<String, Object> map = new LinkedHashMap<>();
    struct.getFieldsMap().forEach((key, value) -> map.put(key, toJava(value)));
    return map;
  }

  private static Object toJava(Value value) {
    return switch (value.getKindCase()) {
      case NULL_VALUE, KIND_NOT_SET -> null;
      case NUMBER_VALUE -> value.getNumberValue();
      case STRING_VALUE -> value.getStringValue();
      case BOOL_VALUE -> value.getBoolValue();
      case STRUCT_VALUE -> toMap(value.getStructValue());
      case LIST_VALUE -> {
        List<Object> list = new ArrayList<>();
        value.getListValue().getValuesList().forEach(element -> list.add(toJava(element)));
        yield list;
      }
    };
  }

  /**
   * The config in {@code config}, parsed JSON as grpc-java's {@code defaultServiceConfig} takes it: maps with
   * string keys, lists, strings, numbers, booleans and nulls.
   *
   * @throws IllegalArgumentException if it is not a valid service config
   */
  static ServiceConfig parse(Map<String, ?> config) {
    Objects.requireNonNull(config, "config");
    Map<String, MethodConfig> methodConfigs = new LinkedHashMap<>();
    Map<String, String> namePaths = new HashMap<>();
    ServiceConfig.Throttling throttling = null;
    for (Field field : fields(config, null)) {
      String path = field.at();
      Object value = field.value();
      switch (field.name()) {
        case "methodConfig" -> {
          List<?> list = list(value, path);
          for (int i = 0; i < list.size(); i++) {
            String at = path + "[" + i + "]";
            methodConfig(object(list.get(i), at), at, methodConfigs, namePaths);
          }
        }
        case "retryThrottling" -> throttling = throttling(object(value, path), path);
        case "loadBalancingConfig" -> {
          list(value, path);
          ignored(path, "Triple's clients balance as their cluster (a registry's Discovery) is configured in code");
        }
        case "loadBalancingPolicy" -> {
          string(value, path);
          ignored(path, "Triple's clients balance as their cluster (a registry's Discovery) is configured in code");
        }
        default -> ignored(path, "not a field Triple knows");
      }
    }
    return new ServiceConfig(methodConfigs, throttling);
  }

  /** A field of a JSON object that is set (null counts as absent), and its path for messages. */
  private record Field(String name, String at, Object value) {}

  /** The fields of {@code object} that are set, in order; {@code path} is the object's, null at the top. */
  private static List<Field> fields(Map<String, ?> object, String path) {
    List<Field> fields = new ArrayList<>(object.size());
    for (Map.Entry<String, ?> field : object.entrySet()) {
      if (field.getValue() != null) {
        String at = path == null ? field.getKey() : path + "." + field.getKey();
        fields.add(new Field(field.getKey(), at, field.getValue()));
      }
    }
    return fields;
  }

  /** Adds the config at {@code path} under each of its names, none of which may have been seen before. */
  private static void methodConfig(Map<String, ?> fields, String path, Map<String, MethodConfig> methodConfigs,
      Map<String, String> namePaths) {
    List<?> names = List.of();
    RetryPolicy retry = null;
    HedgingPolicy hedging = null;
    long timeoutNanos = 0;
    for (Field field : fields(fields, path)) {
      String at = field.at();
      Object value = field.value();
      switch (field.name()) {
        case "name" -> names = list(value, at);
        case "retryPolicy" -> retry = retryPolicy(object(value, at), at);
        case "hedgingPolicy" -> hedging = hedgingPolicy(object(value, at), at);
        case "timeout" -> {
          Duration timeout = duration(value, at);
          if (timeout.isNegative() || timeout.isZero()) {
            throw invalid(at, "must be > 0", value);
          }
          timeoutNanos = saturatedNanos(timeout);
        }
        case "waitForReady" -> {
          bool(value, at);
          ignored(at, "Triple has no wait-for-ready calls: a call fails UNAVAILABLE when no connection can be had");
        }
        case "maxRequestMessageBytes", "maxResponseMessageBytes" -> {
          integer(value, at, 0, 0xFFFF_FFFFL);
          ignored(at, "Triple's message size limits are the client's (maxInboundMessageSize), not per method");
        }
        default -> ignored(at, "not a field Triple knows");
      }
    }
    if (retry != null && hedging != null) {
      throw new IllegalArgumentException(path + " has both a retryPolicy and a hedgingPolicy; a method config has"
          + " one or neither");
    }
    if (names.isEmpty()) {
      log.debug("Service config: {} has no name, so it applies to no method", path);
      return;
    }
    MethodConfig config = new MethodConfig(retry, hedging, timeoutNanos);
    for (int i = 0; i < names.size(); i++) {
      String at = path + ".name[" + i + "]";
      String name = name(object(names.get(i), at), at);
      String first = namePaths.putIfAbsent(name, at);
      if (first != null) {
        throw new IllegalArgumentException(at + " names " + (name.isEmpty() ? "every method (no service)" : name)
            + " again, after " + first + "; a name may have one method config");
      }
      methodConfigs.put(name, config);
    }
  }

  /** The key of a {@code name}: "pkg.Service/Method", "pkg.Service", or "" for every method. */
  private static String name(Map<String, ?> fields, String path) {
    String service = "";
    String method = "";
    for (Field field : fields(fields, path)) {
      String at = field.at();
      Object value = field.value();
      switch (field.name()) {
        case "service" -> service = nameComponent(value, at);
        case "method" -> method = nameComponent(value, at);
        default -> ignored(at, "not a field Triple knows");
      }
    }
    if (service.isEmpty() && !method.isEmpty()) {
      throw invalid(path + ".method", "needs a service (a name without one is the default of every method)",
          method);
    }
    return method.isEmpty() ? service : service + "/" + method;
  }

  /** A service or method name, which never holds the slash that joins them. */
  private static String nameComponent(Object value, String path) {
    String name = string(value, path);
    if (name.indexOf('/') >= 0) {
      throw invalid(path, "must not hold '/'", value);
    }
    return name;
  }

  private static RetryPolicy retryPolicy(Map<String, ?> fields, String path) {
    RetryPolicy.Builder policy = RetryPolicy.builder()
        .maxAttempts(maxAttempts(required(fields, "maxAttempts", path), path + ".maxAttempts"))
        .initialBackoff(backoff(required(fields, "initialBackoff", path), path + ".initialBackoff"))
        .maxBackoff(backoff(required(fields, "maxBackoff", path), path + ".maxBackoff"));
    String multiplierPath = path + ".backoffMultiplier";
    Object rawMultiplier = required(fields, "backoffMultiplier", path);
    double multiplier = number(rawMultiplier, multiplierPath);
    if (!(multiplier > 0) || Double.isInfinite(multiplier)) {
      throw invalid(multiplierPath, "must be > 0", rawMultiplier);
    }
    String codesPath = path + ".retryableStatusCodes";
    Status.Code[] codes = statusCodes(required(fields, "retryableStatusCodes", path), codesPath);
    if (codes.length == 0) {
      throw new IllegalArgumentException(codesPath + " must not be empty");
    }
    ignoreOthers(fields, path, "maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier",
        "retryableStatusCodes");
    return policy.backoffMultiplier(multiplier).retryableStatusCodes(codes).build();
  }

  private static HedgingPolicy hedgingPolicy(Map<String, ?> fields, String path) {
    HedgingPolicy.Builder policy = HedgingPolicy.builder()
        .maxAttempts(maxAttempts(required(fields, "maxAttempts", path), path + ".maxAttempts"))
        // A6: "Set this to "0s", or leave unset, to immediately send all maxAttempts RPCs".
        .hedgingDelay(Duration.ZERO)
        .nonFatalStatusCodes();
    Object rawDelay = fields.get("hedgingDelay");
    if (rawDelay != null) {
      Duration delay = duration(rawDelay, path + ".hedgingDelay");
      if (delay.isNegative()) {
        throw invalid(path + ".hedgingDelay", "must not be negative", rawDelay);
      }
      policy.hedgingDelay(delay);
    }
    Object codes = fields.get("nonFatalStatusCodes");
    if (codes != null) {
      policy.nonFatalStatusCodes(statusCodes(codes, path + ".nonFatalStatusCodes"));
    }
    ignoreOthers(fields, path, "maxAttempts", "hedgingDelay", "nonFatalStatusCodes");
    return policy.build();
  }

  private static ServiceConfig.Throttling throttling(Map<String, ?> fields, String path) {
    int maxTokens = (int) integer(required(fields, "maxTokens", path), path + ".maxTokens", 1, 1000);
    String ratioPath = path + ".tokenRatio";
    Object rawRatio = required(fields, "tokenRatio", path);
    double tokenRatio = number(rawRatio, ratioPath);
    if (!(tokenRatio > 0) || Double.isInfinite(tokenRatio)) {
      throw invalid(ratioPath, "must be > 0", rawRatio);
    }
    ignoreOthers(fields, path, "maxTokens", "tokenRatio");
    return new ServiceConfig.Throttling(maxTokens, tokenRatio);
  }

  /** At least 2; more than gRPC's cap of 5 count as 5. */
  private static int maxAttempts(Object value, String path) {
    double attempts = wholeNumber(value, path);
    if (attempts < 2) {
      throw invalid(path, "must be > 1", value);
    }
    return (int) Math.min(attempts, RetryPolicy.MAX_ATTEMPTS_CAP);
  }

  private static Duration backoff(Object value, String path) {
    Duration backoff = duration(value, path);
    if (backoff.isNegative() || backoff.isZero()) {
      throw invalid(path, "must be > 0", value);
    }
    return backoff;
  }

  private static Status.Code[] statusCodes(Object value, String path) {
    List<?> list = list(value, path);
    Set<Status.Code> codes = EnumSet.noneOf(Status.Code.class);
    for (int i = 0; i < list.size(); i++) {
      String at = path + "[" + i + "]";
      Object code = list.get(i);
      Status.Code parsed;
      if (code instanceof String name) {
        try {
          parsed = Status.Code.valueOf(name);
        } catch (IllegalArgumentException e) {
          throw invalid(at, "is not a status code name (such as UNAVAILABLE)", code);
        }
      } else {
        long number = integer(code, at, 0, Status.Code.values().length - 1);
        parsed = Status.Code.fromValue((int) number);
      }
      if (parsed == Status.Code.OK) {
        throw invalid(at, "must be a failure, not OK", code);
      }
      codes.add(parsed);
    }
    return codes.toArray(new Status.Code[0]);
  }

  /** A proto3 JSON {@code Duration}: seconds with up to 9 decimals and an "s" ("0.1s"; A6's ".1s" too). */
  private static Duration duration(Object value, String path) {
    String text = string(value, path);
    // A6's examples write ".1s", which protobuf's canonical parser refuses: give it its leading zero.
    String canonical = text.startsWith(".") ? "0" + text : text.startsWith("-.") ? "-0" + text.substring(1) : text;
    try {
      com.google.protobuf.Duration parsed = Durations.parse(canonical);
      return Duration.ofSeconds(parsed.getSeconds(), parsed.getNanos());
    } catch (ParseException e) {
      throw invalid(path, "is not a duration such as \"0.1s\" (" + e.getMessage() + ")", value);
    }
  }

  /** A positive {@code duration} in nanoseconds; Long.MAX_VALUE past about 292 years, as CallOptions does. */
  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static Object required(Map<String, ?> fields, String key, String path) {
    Object value = fields.get(key);
    if (value == null) {
      throw new IllegalArgumentException(path + "." + key + " is required");
    }
    return value;
  }

  /** A whole number in [min, max]: a JSON number or a numeric string, as proto3's JSON mapping reads them. */
  private static long integer(Object value, String path, long min, long max) {
    double number = wholeNumber(value, path);
    if (number < min || number > max) {
      throw invalid(path, "must be in [" + min + ", " + max + "]", value);
    }
    return (long) number;
  }

  private static double wholeNumber(Object value, String path) {
    double number = number(value, path);
    if (number != Math.rint(number) || Double.isInfinite(number)) {
      throw invalid(path, "must be a whole number", value);
    }
    return number;
  }

  private static double number(Object value, String path) {
    if (value instanceof Number number) {
      return number.doubleValue();
    }
    if (value instanceof String text && isNumeric(text)) {
      return Double.parseDouble(text);
    }
    throw invalid(path, "must be a number", value);
  }

  /** Whether {@code text} is a JSON number (no hex, no NaN or Infinity, which Double.parseDouble takes). */
  private static boolean isNumeric(String text) {
    return text.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  }

  private static String string(Object value, String path) {
    if (value instanceof String text) {
      return text;
    }
    throw invalid(path, "must be a string", value);
  }

  private static boolean bool(Object value, String path) {
    if (value instanceof Boolean flag) {
      return flag;
    }
    throw invalid(path, "must be true or false", value);
  }

  private static List<?> list(Object value, String path) {
    if (value instanceof List<?> list) {
      return list;
    }
    throw invalid(path, "must be a list", value);
  }

  private static Map<String, ?> object(Object value, String path) {
    if (value instanceof Map<?, ?> map) {
      for (Object key : map.keySet()) {
        if (!(key instanceof String)) {
          throw invalid(path, "must be an object with string keys", value);
        }
      }
      @SuppressWarnings("unchecked")
      Map<String, ?> object = (Map<String, ?>) map;
      return object;
    }
    throw invalid(path, "must be an object", value);
  }

  private static void ignoreOthers(Map<String, ?> fields, String path, String... known) {
    for (String key : fields.keySet()) {
      if (!List.of(known).contains(key) && fields.get(key) != null) {
        ignored(path + "." + key, "not a field Triple knows");
      }
    }
  }

  private static void ignored(String path, String why) {
    log.debug("Service config: {} ignored: {}", path, why);
  }

  private static IllegalArgumentException invalid(String path, String rule, Object value) {
    return new IllegalArgumentException(path + " " + rule + ": " + shown(value));
  }

  /** {@code value} as JSON would show it: strings quoted, whole numbers without the ".0" of a double. */
  private static String shown(Object value) {
    if (value instanceof String) {
      return "\"" + value + "\"";
    }
    if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15) {
      return Long.toString(number.longValue());
    }
    return String.valueOf(value);
  }
}
