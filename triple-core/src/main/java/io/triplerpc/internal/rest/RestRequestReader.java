package io.triplerpc.internal.rest;

import java.io.IOException;
import java.io.InputStream;

/** Builds a method's request from a REST request: its body, its path's variables, query and headers. */
public interface RestRequestReader {

  /**
   * The request {@code body} and {@code rest} make, as the method's handler takes it.
   *
   * @throws io.triplerpc.serialization.MalformedMessageException naming the parameter or field, if a part
   *     does not read as its type
   */
  Object read(InputStream body, RestRequest rest) throws IOException;

  /**
   * Whether the body may be {@code application/x-www-form-urlencoded}: the reader binds form fields (JAX-RS's
   * {@code @FormParam}, Spring's {@code @RequestParam}, which reads them as request parameters). JSON only by
   * default, as grpc-gateway reads {@code google.api.http} bodies.
   */
  default boolean readsForm() {
    return false;
  }
}
