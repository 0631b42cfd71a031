package io.triplerpc.internal.rest;

import java.util.Map;

/**
 * A REST request matched to a binding, as the transport hands it to core: what the transcoder needs
 * besides the body. Immutable.
 *
 * @param binding the rule it matched
 * @param pathVariables each variable's field path and decoded value
 * @param rawQuery the query after {@code ?}, still percent-encoded, or null for none
 */
public record RestRequest(HttpBinding binding, Map<String, String> pathVariables, String rawQuery) {

  /** The gRPC path of the method the request calls. */
  public CharSequence rpcPath() {
    return binding.rpcPath();
  }
}
