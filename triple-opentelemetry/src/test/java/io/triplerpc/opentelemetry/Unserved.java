package io.triplerpc.opentelemetry;

import com.google.protobuf.StringValue;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;

/** A method of the relay's service that no server serves. */
@TripleService(name = "triple.tracing.Relay")
public interface Unserved {

  @TripleMethod(name = "Missing")
  StringValue missing(StringValue request);
}
