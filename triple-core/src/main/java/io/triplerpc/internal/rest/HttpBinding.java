package io.triplerpc.internal.rest;

import io.netty.util.AsciiString;
import io.triplerpc.serialization.MessageCodec;

/**
 * One HTTP route to a method: a {@code google.api.http} rule (or one of its additional bindings), or the
 * JAX-RS or Spring Web annotations of an interface method. Immutable.
 *
 * @param httpMethod GET, PUT, POST, DELETE, PATCH or a custom one, upper case
 * @param template the path it serves
 * @param rpcPath the method's gRPC path, {@code /package.Service/Method}
 * @param reader builds the method's request from the REST request
 * @param responseCodec writes the response as the REST answer's JSON
 * @param source what declared the route, for messages
 * @param docs what an OpenAPI document says of it
 * @param serverStreaming whether the method answers with a stream of messages (newline-delimited JSON)
 * @param conditions what a request must meet besides its method and path (Spring's params, headers, consumes,
 *     produces; JAX-RS's {@code @Consumes}, {@code @Produces}); {@link MappingConditions#NONE} for a proto rule
 */
public record HttpBinding(String httpMethod, PathTemplate template, AsciiString rpcPath, RestRequestReader reader,
    MessageCodec<Object> responseCodec, String source, RouteDocs docs, boolean serverStreaming,
    MappingConditions conditions) {

  @Override
  public String toString() {
    return httpMethod + " " + template + " -> " + rpcPath + " (" + source + ")";
  }
}
