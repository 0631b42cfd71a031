package io.triplerpc.opentelemetry.internal;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.triplerpc.Metadata;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a propagator read and write a call's headers. Binary ({@code -bin}) headers pass as base64 text,
 * the form a text propagator (grpc-java's {@code grpc-trace-bin} one, say) reads and writes.
 */
enum MetadataCarrier implements TextMapGetter<Metadata>, TextMapSetter<Metadata> {
  INSTANCE;

  private static final Logger log = LoggerFactory.getLogger(MetadataCarrier.class);

  @Override
  public Iterable<String> keys(Metadata carrier) {
    return carrier.keys();
  }

  @Override
  public String get(Metadata carrier, String key) {
    if (carrier == null) {
      return null;
    }
    if (Metadata.isBinaryKey(key)) {
      byte[] value = carrier.getBinary(key);
      return value == null ? null : Base64.getEncoder().encodeToString(value);
    }
    return carrier.get(key);
  }

  @Override
  public void set(Metadata carrier, String key, String value) {
    if (carrier == null) {
      return;
    }
    try {
      carrier.removeAll(key);
      if (Metadata.isBinaryKey(key)) {
        carrier.put(key, Base64.getDecoder().decode(value));
      } else {
        carrier.put(key, value);
      }
    } catch (IllegalArgumentException e) {
      // A propagator's header that is no valid header (an odd key, a value outside printable ASCII)
      // must not fail the call: the call goes without it.
      log.debug("Header {} from the propagator left out: {}", key, e.getMessage());
    }
  }
}
