package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import io.netty.util.AsciiString;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.OverloadSet;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.internal.descriptor.WrappedMethod;
import io.triplerpc.serialization.JsonParameters;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.wrapper.OverloadedArguments;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST routes that JAX-RS or Spring Web annotations on a service interface declare, as Dubbo 3.3's
 * Triple REST reads them: the type's path before each method's, parameters bound to path variables,
 * query parameters, headers or the body (JSON). Plain Java methods take any mix; a protobuf method takes
 * its message from the body.
 */
final class AnnotatedRoutes {

  private static final Logger log = LoggerFactory.getLogger(AnnotatedRoutes.class);

  private AnnotatedRoutes() {}

  /**
   * Adds the routes of {@code serviceInterface}'s annotated methods, of those {@code served} holds.
   *
   * @throws IllegalArgumentException naming the method, if its annotations cannot be served
   */
  static void bind(Class<?> serviceInterface, List<MethodDescriptor<?, ?>> served, List<HttpBinding> into) {
    ServiceDescriptor service = ServiceDescriptor.of(serviceInterface);
    for (MethodBinding binding : service.methods()) {
      Method javaMethod = binding.javaMethod();
      List<WebAnnotations.Route> routes;
      try {
        routes = WebAnnotations.routes(serviceInterface, javaMethod);
      } catch (IllegalArgumentException e) {
        // A malformed condition (a media type that is none, a params expression without a name).
        throw new IllegalArgumentException("REST annotations of " + serviceInterface.getName() + "."
            + javaMethod.getName() + ": " + e.getMessage(), e);
      }
      if (routes.isEmpty()) {
        continue;
      }
      MethodDescriptor<?, ?> method = served.stream()
          .filter(m -> m.methodName().equals(binding.descriptor().methodName())).findFirst().orElse(null);
      if (method == null) {
        continue;
      }
      String where = serviceInterface.getName() + "." + javaMethod.getName();
      if (method.type() != MethodType.UNARY) {
        log.warn("{} has REST annotations but is {}: only unary methods are served over REST", where, method.type());
        continue;
      }
      // An overload is its own route: it reads and answers as itself, and its request names it to the
      // method that serves every overload of the name.
      OverloadSet overloads = service.overloads(binding);
      MethodDescriptor<?, ?> own = overloads == null ? method : binding.descriptor();
      try {
        for (WebAnnotations.Route route : routes) {
          WebPaths.Converted path = WebPaths.convert(route.path());
          RestRequestReader reader = reader(javaMethod, own, path.variables(), where);
          @SuppressWarnings("unchecked")
          MessageCodec<Object> plain = (MessageCodec<Object>) own.responseCodec().withSubtype(WrappedMethod.PLAIN_JSON);
          @SuppressWarnings("unchecked")
          MessageCodec<Object> response = plain != null ? plain
              : (MessageCodec<Object>) own.responseCodec().withSubtype("json");
          if (response == null) {
            throw new IllegalArgumentException("its result has no JSON form");
          }
          RouteDocs docs = reader instanceof AnnotatedRequestReader annotated
              ? annotated.docs(path.template(), javaMethod.getGenericReturnType())
              : new JavaRouteDocs(path.template(), new WebAnnotations.Parameter[] {
                  new WebAnnotations.Parameter(WebAnnotations.Source.BODY, null, null, true)}, new WebPaths.Variable[1],
                  List.of(javaMethod.getGenericParameterTypes()), javaMethod.getGenericReturnType());
          if (overloads != null) {
            reader = new OverloadReader(reader, overloads.indexOf(binding));
            docs = new OverloadDocs(docs, javaMethod);
          }
          for (String httpMethod : route.httpMethods()) {
            into.add(new HttpBinding(httpMethod, path.template(), AsciiString.of(method.path()), reader, response,
                "annotations of " + where, docs, false, route.conditions()));
          }
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("REST annotations of " + where + ": " + e.getMessage(), e);
      }
    }
  }

  /** An overload's reader: its arguments, named as that overload's. */
  private record OverloadReader(RestRequestReader arguments, int overload) implements RestRequestReader {
    @Override
    public Object read(InputStream body, RestRequest rest) throws IOException {
      return new OverloadedArguments.Chosen(overload, arguments.read(body, rest));
    }

    @Override
    public boolean readsForm() {
      return arguments.readsForm();
    }
  }

  /**
   * An overload's docs: its operation id is the method's followed by the simple names of its parameter
   * types ({@code Users_find_long}, {@code Users_find_String_int}); the overload without parameters keeps
   * the method's.
   */
  private record OverloadDocs(RouteDocs docs, Method overload) implements RouteDocs {
    @Override
    public String openApiPath() {
      return docs.openApiPath();
    }

    @Override
    public void describe(ObjectNode operation, OpenApiSchemas schemas) {
      docs.describe(operation, schemas);
    }

    @Override
    public String operationIdSuffix() {
      StringBuilder suffix = new StringBuilder();
      for (Class<?> parameter : overload.getParameterTypes()) {
        suffix.append('_').append(parameter.getSimpleName().replace("[]", "Array"));
      }
      return suffix.toString();
    }
  }

  private static RestRequestReader reader(Method javaMethod, MethodDescriptor<?, ?> method,
      Map<String, WebPaths.Variable> variables, String where) {
    MessageCodec<?> json = method.requestCodec().withSubtype("json");
    if (json instanceof JsonParameters parameters) {
      return AnnotatedRequestReader.of(javaMethod, parameters, variables, where);
    }
    Class<?> messageType = method.requestCodec().messageType();
    if (json == null || messageType == null || !Message.class.isAssignableFrom(messageType)) {
      throw new IllegalArgumentException("its parameters have no JSON form");
    }
    // A protobuf method: its one message is the body.
    WebAnnotations.Parameter parameter = javaMethod.getParameterCount() == 1 ? WebAnnotations.parameter(javaMethod, 0)
        : null;
    if (parameter != null && parameter.source() != WebAnnotations.Source.BODY) {
      throw new IllegalArgumentException("a protobuf method takes its message from the body, not from "
          + parameter.source().name().toLowerCase(java.util.Locale.ROOT) + " " + parameter.name());
    }
    @SuppressWarnings("unchecked")
    MessageCodec<Object> body = (MessageCodec<Object>) json;
    return (in, rest) -> body.read(in);
  }
}
