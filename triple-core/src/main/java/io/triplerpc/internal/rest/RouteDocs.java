package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What an OpenAPI document says of one route: its parameters, request body and response. */
public interface RouteDocs {

  /** The route's path as OpenAPI writes it, {@code /v1/shelves/{shelf}/books}. */
  String openApiPath();

  /**
   * Fills {@code operation} (an OpenAPI Operation object, its {@code operationId} set): its
   * {@code parameters}, {@code requestBody} and the 200 response's schema, with the schemas it refers to
   * added to {@code schemas}.
   */
  void describe(ObjectNode operation, OpenApiSchemas schemas);

  /**
   * What follows the method's name in the route's {@code operationId}: empty, but for a Java overload the
   * simple names of its parameter types, each after an underscore ({@code _String_int}).
   */
  default String operationIdSuffix() {
    return "";
  }
}
