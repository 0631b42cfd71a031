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
 */
public record RestRequest(HttpBinding binding, Map<String, String> pathVariables, String rawQuery, Metadata headers) {

  /** The request with its headers, which the transport reads after routing it. */
  public RestRequest withHeaders(Metadata headers) {
    return new RestRequest(binding, pathVariables, rawQuery, headers);
  }

  /** The gRPC path of the method the request calls. */
  public CharSequence rpcPath() {
    return binding.rpcPath();
  }
}
