package io.triplerpc.internal.rest;

import io.triplerpc.Metadata;
import java.util.Map;

/**
 * A REST request matched to a binding, as the transport hands it to core: what the transcoder needs
 * besides the body. Immutable.
 *
 * @param binding the rule it matched
 * @param pathVariables each variable's field path and decoded value
 * @param rawQuery the query after {@code ?}, still percent-encoded, or null for none
 * @param headers the request's headers, as the call's metadata
 * @param formBody whether the body is {@code application/x-www-form-urlencoded} (else JSON, or none)
 */
public record RestRequest(HttpBinding binding, Map<String, String> pathVariables, String rawQuery, Metadata headers,
    boolean formBody) {

  /** The request with its headers and the kind of its body, which the transport reads after routing it. */
  public RestRequest withHeaders(Metadata headers, boolean formBody) {
    return new RestRequest(binding, pathVariables, rawQuery, headers, formBody);
  }

  /** The gRPC path of the method the request calls. */
  public CharSequence rpcPath() {
    return binding.rpcPath();
  }
}
