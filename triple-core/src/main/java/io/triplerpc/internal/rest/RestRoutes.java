package io.triplerpc.internal.rest;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.netty.util.AsciiString;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.internal.reflection.DescriptorIndex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST routes of a server: every {@code google.api.http} binding of the unary and server-streaming
 * protobuf methods it serves, and the annotated routes of its Java interfaces, matched by HTTP method and path. Of the bindings that match, the one with the most literal
 * segments wins, then the one declared first. Immutable; thread-safe.
 */
public final class RestRoutes {

  private static final Logger log = LoggerFactory.getLogger(RestRoutes.class);
  private static final RestRoutes NONE = new RestRoutes(List.of(), Map.of());
  private static final boolean RULES_READABLE = classPresent("com.google.api.HttpRule");

  /**
   * What a request finds: a binding, only bindings of other HTTP methods, bindings whose conditions it fails, or
   * nothing of a server that has routes.
   */
  public sealed interface Result permits Found, NotAllowed, NotFound, Refused {}

  /**
   * Bindings of the path and HTTP method serve it, but the request fails their conditions: 415 when its content
   * type is what they all refuse, 406 when its {@code Accept}, 400 when its parameters, 404 when its headers, as
   * Spring MVC answers.
   *
   * @param httpStatus that status
   * @param message why, naming the conditions
   */
  public record Refused(int httpStatus, String message) implements Result {}

  /** The binding the request matched, with its variables. */
  public record Found(RestRequest request) implements Result {}

  /** The path is served, for other HTTP methods. @param allow those methods, for {@code Allow} */
  public record NotAllowed(String allow) implements Result {}

  /** Nothing serves the path, which names no method either: a REST client's 404. */
  public record NotFound() implements Result {}

  /** The one {@link NotFound}. */
  public static final NotFound NOT_FOUND = new NotFound();

  private final List<HttpBinding> bindings;
  /** The services' {@code .proto} comments, by full name, for the OpenAPI document. */
  private final Map<String, String> comments;

  private RestRoutes(List<HttpBinding> bindings, Map<String, String> comments) {
    this.bindings = List.copyOf(bindings);
    this.comments = Map.copyOf(comments);
  }

  /**
   * The routes of {@code methods}: the {@code google.api.http} rules of their .proto declarations (the
   * files {@code protoFiles} names by service, {@link io.triplerpc.TripleService#protoFile()}, or those of
   * their messages), and the JAX-RS or Spring Web annotations of the interfaces {@code interfaces} names by
   * service.
   *
   * @throws IllegalArgumentException naming the method, if a rule or annotation is malformed or names
   *     fields or variables that are not there
   */
  public static RestRoutes of(List<MethodDescriptor<?, ?>> methods, Map<String, Class<?>> protoFiles,
      Map<String, Class<?>> interfaces) {
    Map<String, List<MethodDescriptor<?, ?>>> byService = new LinkedHashMap<>();
    for (MethodDescriptor<?, ?> method : methods) {
      byService.computeIfAbsent(method.serviceName(), k -> new ArrayList<>()).add(method);
    }
    List<HttpBinding> bindings = new ArrayList<>();
    Map<String, String> comments = new java.util.HashMap<>();
    byService.forEach((service, served) -> {
      Class<?> serviceInterface = interfaces.get(service);
      if (serviceInterface != null) {
        AnnotatedRoutes.bind(serviceInterface, served, bindings);
        io.triplerpc.ProtoComments protoComments = serviceInterface.getAnnotation(io.triplerpc.ProtoComments.class);
        if (protoComments != null) {
          for (io.triplerpc.ProtoComments.Comment comment : protoComments.value()) {
            comments.put(comment.element(), comment.text());
          }
        }
      }
      if (!RULES_READABLE) {
        return;
      }
      Descriptors.ServiceDescriptor declared = DescriptorIndex.declaredService(protoFiles.get(service), service, served);
      if (declared == null) {
        return;
      }
      for (MethodDescriptor<?, ?> method : served) {
        Descriptors.MethodDescriptor proto = declared.findMethodByName(method.methodName());
        if (proto != null) {
          bind(method, proto, bindings);
        }
      }
    });
    return bindings.isEmpty() ? NONE : new RestRoutes(bindings, comments);
  }

  private static void bind(MethodDescriptor<?, ?> method, Descriptors.MethodDescriptor proto, List<HttpBinding> into) {
    List<HttpRules.Rule> rules;
    try {
      rules = HttpRules.of(proto);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("google.api.http of " + method.fullMethodName() + ": " + e.getMessage(), e);
    }
    if (rules.isEmpty()) {
      return;
    }
    if (!method.type().clientSendsOneMessage()) {
      // grpc-gateway serves these half-duplex (the whole request body first); Triple leaves them to the RPC
      // protocols rather than pretend to stream both ways.
      log.warn("{} has google.api.http rules but is {}: unary and server-streaming methods are served over REST",
          method.fullMethodName(), method.type());
      return;
    }
    Message request = defaultInstance(method.requestCodec().messageType());
    Message response = defaultInstance(method.responseCodec().messageType());
    if (request == null || response == null) {
      return;
    }
    for (HttpRules.Rule rule : rules) {
      into.add(binding(method, rule, request, response));
    }
  }

  private static HttpBinding binding(MethodDescriptor<?, ?> method, HttpRules.Rule rule, Message request,
      Message response) {
    String where = "google.api.http of " + method.fullMethodName() + " (" + rule.httpMethod() + " " + rule.path() + "): ";
    PathTemplate template;
    try {
      template = PathTemplate.parse(rule.path());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + e.getMessage(), e);
    }
    List<String> bound = new ArrayList<>();
    for (String fieldPath : template.fieldPaths()) {
      List<FieldDescriptor> fields = FieldValues.resolve(request.getDescriptorForType(), fieldPath);
      if (fields == null) {
        throw new IllegalArgumentException(where + "the path names " + fieldPath + ", which "
            + request.getDescriptorForType().getFullName() + " does not have");
      }
      bound.add(protoPath(fields));
    }
    String body = rule.body();
    if (body != null && !body.equals("*")) {
      FieldDescriptor field = request.getDescriptorForType().findFieldByName(body);
      if (field == null) {
        throw new IllegalArgumentException(where + "the body is " + body + ", which "
            + request.getDescriptorForType().getFullName() + " does not have as a top-level field");
      }
      bound.add(body);
    }
    if (body != null && (rule.httpMethod().equals("GET") || rule.httpMethod().equals("DELETE"))) {
      // http.proto: GET and DELETE take no body; grpc-gateway's generator refuses such rules too.
      throw new IllegalArgumentException(where + rule.httpMethod() + " takes no body");
    }
    String responseBody = rule.responseBody();
    if (responseBody != null && response.getDescriptorForType().findFieldByName(responseBody) == null) {
      throw new IllegalArgumentException(where + "the response body is " + responseBody + ", which "
          + response.getDescriptorForType().getFullName() + " does not have");
    }
    RestJson json = new RestJson(request, response);
    boolean streaming = !method.type().serverSendsOneMessage();
    return new HttpBinding(rule.httpMethod(), template, AsciiString.of(method.path()),
        new ProtoRequestReader(rule.httpMethod(), request, body, bound, json),
        streaming ? RestCodecs.streamResponse(response, responseBody, json)
            : RestCodecs.response(response, responseBody, json),
        "google.api.http of " + method.fullMethodName(),
        new ProtoRouteDocs(template, request, body, bound, response, responseBody, streaming), streaming,
        MappingConditions.NONE);
  }

  private static String protoPath(List<FieldDescriptor> fields) {
    StringBuilder path = new StringBuilder();
    for (FieldDescriptor field : fields) {
      if (path.length() > 0) {
        path.append('.');
      }
      path.append(field.getName());
    }
    return path.toString();
  }

  private static Message defaultInstance(Class<?> type) {
    if (type == null || !Message.class.isAssignableFrom(type)) {
      return null;
    }
    @SuppressWarnings("unchecked")
    Class<? extends Message> messageType = (Class<? extends Message>) type;
    return com.google.protobuf.Internal.getDefaultInstance(messageType);
  }

  private static boolean classPresent(String name) {
    try {
      Class.forName(name, false, RestRoutes.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** No route. */
  public static RestRoutes none() {
    return NONE;
  }

  /**
   * The OpenAPI 3.1 document of the routes of {@code service} (every route when null), as UTF-8 JSON.
   *
   * @param title the document's title
   */
  public byte[] openApi(String title, String service) {
    List<HttpBinding> described = new ArrayList<>();
    for (HttpBinding binding : bindings) {
      if (service == null || binding.rpcPath().toString().startsWith("/" + service + "/")) {
        described.add(binding);
      }
    }
    return OpenApi.document(described, comments, title, "1");
  }

  /** The services that have routes, in the order their first route was declared. */
  public java.util.Set<String> services() {
    java.util.Set<String> services = new java.util.LinkedHashSet<>();
    for (HttpBinding binding : bindings) {
      String rpc = binding.rpcPath().toString();
      services.add(rpc.substring(1, rpc.indexOf('/', 1)));
    }
    return services;
  }

  /** Whether there is no route at all. */
  public boolean isEmpty() {
    return bindings.isEmpty();
  }

  /** Every binding, in declaration order. */
  public List<HttpBinding> bindings() {
    return bindings;
  }

  /**
   * What {@code httpMethod} to {@code target} (the path and query, percent-encoded as they came)
   * finds; null when no binding serves its path.
   *
   * @throws IllegalArgumentException if the path holds a malformed percent-escape
   */
  public Result route(CharSequence httpMethod, CharSequence target) {
    return route(httpMethod, target, name -> null);
  }

  /**
   * What {@code httpMethod} to {@code target} (the path and query, percent-encoded as they came) with the
   * request headers {@code header} gives (by lower-case name; null when absent) finds; null when no binding
   * serves its path. Of the bindings whose path, method and conditions the request meets, the one with the most
   * literal segments wins, then the one with the most conditions, then the first declared.
   *
   * @throws IllegalArgumentException if the path holds a malformed percent-escape
   */
  public Result route(CharSequence httpMethod, CharSequence target, Function<String, CharSequence> header) {
    if (bindings.isEmpty()) {
      return null;
    }
    String text = target.toString();
    int question = text.indexOf('?');
    String path = question < 0 ? text : text.substring(0, question);
    String query = question < 0 ? null : text.substring(question + 1);
    String method = httpMethod.toString();
    String[] parts = PathTemplate.split(path);
    if (parts == null) {
      return null;
    }
    HttpBinding best = null;
    Map<String, String> bestVariables = null;
    TreeSet<String> otherMethods = null;
    Map<String, List<String>> parameters = null;
    MappingConditions.Failure failure = null;
    HttpBinding failed = null;
    for (HttpBinding binding : bindings) {
      boolean sameMethod = binding.httpMethod().equals(method);
      if (!sameMethod && (otherMethods != null && otherMethods.contains(binding.httpMethod()))) {
        continue;
      }
      if (sameMethod && best != null && !moreSpecific(binding, best)) {
        continue;
      }
      Map<String, String> variables = binding.template().match(parts);
      if (variables == null) {
        continue;
      }
      if (sameMethod) {
        if (!binding.conditions().isEmpty()) {
          if (parameters == null) {
            parameters = query == null ? Map.of() : QueryParameters.parse(query);
          }
          MappingConditions.Failure unmet = binding.conditions().test(parameters, header);
          if (unmet != null) {
            // Spring's answer names how far the closest mapping got: past the content type, past Accept...
            if (failure == null || unmet.compareTo(failure) > 0) {
              failure = unmet;
              failed = binding;
            }
            continue;
          }
        }
        best = binding;
        bestVariables = variables;
      } else {
        if (otherMethods == null) {
          otherMethods = new TreeSet<>();
        }
        otherMethods.add(binding.httpMethod());
      }
    }
    if (best != null) {
      return new Found(new RestRequest(best, bestVariables, query, null, false));
    }
    if (failure != null) {
      return refused(failure, failed, header);
    }
    return otherMethods == null ? null : new NotAllowed(String.join(", ", otherMethods));
  }

  /** Whether {@code binding} beats {@code best}: more literal segments, or as many and more conditions. */
  private static boolean moreSpecific(HttpBinding binding, HttpBinding best) {
    int literals = Integer.compare(binding.template().literalCount(), best.template().literalCount());
    return literals > 0 || (literals == 0 && binding.conditions().count() > best.conditions().count());
  }

  private static Refused refused(MappingConditions.Failure failure, HttpBinding failed,
      Function<String, CharSequence> header) {
    return switch (failure) {
      case CONSUMES -> new Refused(415, "Content-Type " + orNone(header.apply("content-type"))
          + " is not supported here: " + failed.conditions());
      case PRODUCES -> new Refused(406, "No answer acceptable to Accept " + orNone(header.apply("accept")) + ": "
          + failed.conditions());
      case PARAMS -> new Refused(400, "The query does not meet the mapping's conditions: " + failed.conditions());
      case HEADERS -> new Refused(404, "Not Found");
    };
  }

  private static String orNone(CharSequence value) {
    return value == null ? "(none)" : value.toString();
  }
}
